package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.securethrift.core.OcspMode;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.Await;
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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The non-blocking server staples the OCSP response for its own certificate as the thread-pool server does, on JSSE
 * (the JDK's stapling) and on {@code openssl} (the response securethrift fetches, handed to each engine of Netty's
 * {@code SslHandler}): clients under hard failure whose own responder refuses connections accept a good server and
 * refuse a revoked one, against a real {@code openssl ocsp} responder. A reload to a certificate whose responder
 * never answers does not hold the event loop. The JVM property the JDK needs is set only while the server's context is
 * created, and restored.
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
    return stapling(tls(engine, trustStore), keyStore);
  }

  /** A server of {@code config} with one event loop, stapling for the certificate in {@code keyStore}. */
  private static NettyThriftServer stapling(SecurityConfig.Builder config, Path keyStore) throws Exception {
    SecurityConfig stapling = config.keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD)).ocspStapling(true)
        .build();
    String was = System.getProperty(JDK_SERVER_STAPLING);
    System.setProperty(JDK_SERVER_STAPLING, "true");
    try {
      return NettyThriftServer.builder(stapling, new EchoService.Processor<>(new EchoHandler()))
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

  @Test
  void aReloadWhoseResponderIsSilentDoesNotHoldTheEventLoop(TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    Optional<String> unavailable = RunnableEnginesOnly.unavailableReason(TlsEngine.OPENSSL);
    assumeTrue(unavailable.isEmpty(), () -> "engine openssl cannot run here: " + unavailable.get());
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    URI unreachable = URI.create(OcspResponder.create(ca, dir).url());
    SecurityConfig client = tls(TlsEngine.OPENSSL, trustStore).ocsp(OcspMode.HARD_FAIL).ocspResponder(unreachable)
        .build();
    // Never accepts: the kernel completes connections to it, and requests wait for an answer that never comes.
    try (OcspResponder ocsp = OcspResponder.create(ca, dir);
        ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      IssuedCertificate good = ca.leaf().ocspResponder(ocsp.url()).issue();
      IssuedCertificate next = ca.leaf().ocspResponder("http://127.0.0.1:" + silent.getLocalPort()).issue();
      ocsp.good(good.certificate()).start();
      Path keyStore = good.writeKeyStore(dir, "reloaded", KeyStoreFormat.PKCS12, PASSWORD);
      try (NettyThriftServer netty = stapling(tls(TlsEngine.OPENSSL, trustStore).tlsReloadInterval(
          Duration.ofMillis(1)), keyStore)) {
        whoAmI(client, netty.port());
        next.writeKeyStore(dir, "reloaded", KeyStoreFormat.PKCS12, PASSWORD);
        // The handshake that finds the change runs on the server's one event loop: it and the next are served at
        // once, with the previous certificate and its staple, while the new certificate's response is awaited.
        whoAmI(client, netty.port());
        whoAmI(client, netty.port());
        // Once that fetch times out, the new certificate is served without a staple, and this client refuses it.
        Await.until("the new certificate served", Duration.ofSeconds(30), () -> {
          try {
            whoAmI(client, netty.port());
            return false;
          } catch (TException refused) {
            return refused.getMessage().contains("has a revocation status that could not be determined");
          }
        });
      }
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
