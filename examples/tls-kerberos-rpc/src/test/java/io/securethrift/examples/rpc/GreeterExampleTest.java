package io.securethrift.examples.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.thrift.server.TServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the example for real: an in-process Kerberos KDC and test CA (securethrift-testkit) issue the keytabs and
 * certificates, the configuration files in {@code src/test/resources/conf} get their paths, and the client greets
 * the server over loopback.
 */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class GreeterExampleTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @Test
  void aliceGreetsTheServerOverTlsAndKerberos(EmbeddedKdc kdc, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    Map<String, String> values = Map.of(
        "realm", kdc.realm(),
        "server.keytab", kdc.servicePrincipal("greeter", "localhost").keytab().toString(),
        "client.keytab", kdc.principal("alice").keytab().toString(),
        // Clients verify the host name they dial against the certificate's subject alternative names.
        "server.keystore", ca.leaf().addSubjectAlternativeName("localhost").issue()
            .writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD).toString(),
        "truststore", ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD).toString());
    SecurityConfig serverConfig = SecurityConfigFiles.read(fill("server.properties", values, dir), "server");
    SecurityConfig clientConfig = SecurityConfigFiles.read(fill("client.properties", values, dir), "client");
    try (ServerTransportFactory factory = ServerTransportFactory.create(serverConfig)) {
      TServerSocket socket = factory.listen(new InetSocketAddress("localhost", 0));
      int port = ServerTransportFactory.port(socket);
      TServer server = GreeterServer.create(factory, socket);
      Thread serving = new Thread(server::serve, "greeter-server");
      serving.start();
      try {
        assertEquals("Hello, alice@" + kdc.realm() + " (TLSv1.3, GSSAPI)",
            GreeterClient.greet(clientConfig, "localhost", port, "Hello"));
        // Without TLS the server refuses the connection before any Kerberos exchange.
        SecurityConfig withoutTls = clientConfig.toBuilder().mode(SecurityMode.SASL).build();
        assertThrows(TTransportException.class, () -> GreeterClient.greet(withoutTls, "localhost", port, "Hello"));
      } finally {
        server.stop();
        serving.join(30_000);
      }
    }
  }

  /** Copies a configuration template into {@code dir}, replacing each {@code ${name}} with its value. */
  private static Path fill(String template, Map<String, String> values, Path dir) throws IOException {
    String text;
    try (InputStream in = GreeterExampleTest.class.getResourceAsStream("/conf/" + template)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (Map.Entry<String, String> value : values.entrySet()) {
      text = text.replace("${" + value.getKey() + "}", value.getValue());
    }
    return Files.writeString(dir.resolve(template), text, StandardCharsets.UTF_8);
  }
}
