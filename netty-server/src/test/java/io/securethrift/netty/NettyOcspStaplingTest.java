package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.OcspMode;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.RevokedPeer;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.OcspResponder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The non-blocking server staples the OCSP response for its own certificate as the thread-pool server does, on JSSE
 * (the JDK's stapling) and on {@code openssl} (the response securethrift fetches, handed to each engine of Netty's
 * {@code SslHandler}): clients under hard failure whose own responder refuses connections accept a good server and
 * refuse a revoked one, against a real {@code openssl ocsp} responder. The JVM property the JDK needs is set only
 * while the server's context is created, and restored.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyOcspStaplingTest {
  private static final String JDK_SERVER_STAPLING = "jdk.tls.server.enableStatusRequestExtension";
  private static final char[] PASSWORD = "changeit".toCharArray();

  private static SecurityConfig.Builder tls(TlsEngine engine, Path trustStore) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
  }

  private static NettyThriftServer stapling(TlsEngine engine, Path keyStore, Path trustStore) throws Exception {
    SecurityConfig config = tls(engine, trustStore).keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .ocspStapling(true).build();
    String was = System.getProperty(JDK_SERVER_STAPLING);
    System.setProperty(JDK_SERVER_STAPLING, "true");
    try {
      return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
          .protocolFactory(new TCompactProtocol.Factory()).workerThreads(2).eventLoopThreads(1)
          .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
    } finally {
      if (was == null) {
        System.clearProperty(JDK_SERVER_STAPLING);
      } else {
        System.setProperty(JDK_SERVER_STAPLING, was);
      }
    }
  }

  private static String whoAmI(SecurityConfig client, int port) throws TException {
    try (ClientTransportFactory clients = ClientTransportFactory.create(client);
        SecuredTransport transport = clients.open("localhost", port)) {
      return new EchoService.Client(transport.protocol(new TCompactProtocol.Factory())).whoAmI();
    }
  }

  @ParameterizedTest
  @CsvSource({"jsse, jsse", "jsse, conscrypt", "openssl, jsse", "openssl, conscrypt", "openssl, openssl"})
  @ExtendWith(RunnableEnginesOnly.class)
  void aClientThatCannotReachTheResponderDecidesOnTheStaple(TlsEngine serverEngine, TlsEngine clientEngine,
      TestCertificateAuthority ca, @CertificateDirectory Path dir) throws Exception {
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    // Never started: its port refuses the client's own requests.
    URI unreachable = URI.create(OcspResponder.create(ca, dir).url());
    SecurityConfig client = tls(clientEngine, trustStore).ocsp(OcspMode.HARD_FAIL).ocspResponder(unreachable).build();
    try (OcspResponder ocsp = OcspResponder.create(ca, dir)) {
      IssuedCertificate good = ca.leaf().ocspResponder(ocsp.url()).issue();
      IssuedCertificate revoked = ca.leaf().ocspResponder(ocsp.url()).issue();
      ocsp.good(good.certificate()).revoke(revoked.certificate()).start();
      try (NettyThriftServer netty = stapling(serverEngine, good.writeKeyStore(dir, "good", KeyStoreFormat.PKCS12,
          PASSWORD), trustStore)) {
        whoAmI(client, netty.port());
      }
      try (NettyThriftServer netty = stapling(serverEngine, revoked.writeKeyStore(dir, "revoked",
          KeyStoreFormat.PKCS12, PASSWORD), trustStore)) {
        String error = assertThrows(TException.class, () -> whoAmI(client, netty.port())).getMessage();
        assertTrue(error.contains("the server's certificate serial " + RevokedPeer.serial(revoked.certificate())
            + " (subject CN=localhost"), error);
        assertTrue(error.contains(") is revoked: reason KEY_COMPROMISE"), error);
      }
    }
  }
}
