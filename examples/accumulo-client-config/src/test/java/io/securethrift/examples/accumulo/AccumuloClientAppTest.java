package io.securethrift.examples.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.core.transport.ServerTransportFactory;
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
 * Runs the example for real: a test CA (securethrift-testkit) issues the certificates, the Accumulo files in
 * {@code src/test/resources/conf} get their paths, and the application calls the stand-in server over loopback.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class AccumuloClientAppTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @Test
  void theClientFileReachesTheServerFileOverMutualTls(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Map<String, String> values = Map.of(
        // Clients verify the host name they dial against the certificate's subject alternative names.
        "tserver.keystore", ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost").issue()
            .writeKeyStore(dir, "tserver", KeyStoreFormat.JKS, PASSWORD).toString(),
        "app.keystore", ca.leaf().commonName("app").issue()
            .writeKeyStore(dir, "app", KeyStoreFormat.JKS, PASSWORD).toString(),
        "truststore", ca.writeTrustStore(dir, KeyStoreFormat.JKS, PASSWORD).toString());
    Path site = fill("accumulo.properties", values, dir);
    Path client = fill("accumulo-client.properties", values, dir);
    // The same client file without its key store: no client certificate, which the server requires.
    Path anonymous = Files.writeString(dir.resolve("anonymous-client.properties"),
        Files.readString(client).replaceAll("(?m)^ssl\\.keystore\\..*$", ""));
    try (ServerTransportFactory factory = ServerTransportFactory.create(
        AccumuloSecurityConfig.fromAccumuloProperties(site))) {
      TServerSocket socket = factory.listen(new InetSocketAddress("localhost", 0));
      int port = ServerTransportFactory.port(socket);
      TServer server = TabletServerStandIn.create(factory, socket);
      Thread serving = new Thread(server::serve, "tablet-server-stand-in");
      serving.start();
      try {
        // Accumulo 2.x's default protocol on both sides is TLSv1.2.
        assertEquals("serving app over TLSv1.2", AccumuloClientApp.status(client, "localhost", port));
        assertThrows(TTransportException.class, () -> AccumuloClientApp.status(anonymous, "localhost", port));
      } finally {
        server.stop();
        serving.join(30_000);
      }
    }
  }

  /** Copies a configuration template into {@code dir}, replacing each {@code ${name}} with its value. */
  private static Path fill(String template, Map<String, String> values, Path dir) throws IOException {
    String text;
    try (InputStream in = AccumuloClientAppTest.class.getResourceAsStream("/conf/" + template)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (Map.Entry<String, String> value : values.entrySet()) {
      text = text.replace("${" + value.getKey() + "}", value.getValue());
    }
    return Files.writeString(dir.resolve(template), text, StandardCharsets.UTF_8);
  }
}
