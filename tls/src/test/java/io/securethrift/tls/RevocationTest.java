package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.ConfigException;
import io.securethrift.core.OcspMode;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.RevokedPeer;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.OcspResponder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Revocation on the thread-pool server and the client, on both engines, against CRLs the test CA issues and a real
 * {@code openssl ocsp} responder: a revoked client is refused with the {@code tls-alert} audit cause and a message
 * naming its serial, a good one is served; a client refuses a revoked server; with the responder down, soft-fail lets
 * the handshake through and hard-fail refuses it; a CRL file replaced at runtime takes effect at the next reload.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class RevocationTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static TestCertificateAuthority ca;
  private static Path dir;
  private static Path serverStore;
  private static Path aliceStore;
  private static IssuedCertificate mallory;
  private static Path malloryStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority authority, @CertificateDirectory Path directory) {
    ca = authority;
    dir = directory;
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    aliceStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").issue(), dir, "alice");
    mallory = ca.leaf().commonName("mallory").issue();
    malloryStore = TlsTestConfigs.keyStore(mallory, dir, "mallory");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
  }

  private static SecurityConfig.Builder server(TlsEngine engine, Path keyStore) {
    return TlsTestConfigs.tls(engine, keyStore, trustStore).clientAuth(ClientAuth.NEED);
  }

  private static SecurityConfig client(TlsEngine engine, Path keyStore) {
    return TlsTestConfigs.tls(engine, keyStore, trustStore).build();
  }

  /** One call over a new connection. */
  private static String call(SecurityConfig client, int port) throws TException {
    try (ClientTransportFactory factory = ClientTransportFactory.create(client);
        SecuredTransport transport = factory.open("localhost", port)) {
      return EchoServer.client(transport).whoAmI();
    }
  }

  /** The client's error: a TLS 1.3 client learns at its first call that the server refused its certificate. */
  private static String refused(SecurityConfig client, int port) {
    return assertThrows(TException.class, () -> {
      try (ClientTransportFactory factory = ClientTransportFactory.create(client);
          SecuredTransport transport = factory.open("localhost", port)) {
        EchoServer.client(transport).echo(ByteBuffer.allocate(1));
      }
    }).getMessage();
  }

  /**
   * Runs the server, calls as alice (served) and as mallory (refused), and checks that the refusal is counted and
   * audited as tls-alert with a message naming mallory's serial.
   */
  private static void refusesMallory(SecurityConfig serverConfig, TlsEngine engine, Path alice, Path malloryStore,
      X509Certificate malloryCertificate) throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(serverConfig);
        EchoServer server = EchoServer.start(factory)) {
      assertTrue(call(client(engine, alice), server.port()).contains("principal=alice"));
      refused(client(engine, malloryStore), server.port());
      RevokedPeer.assertRefusedAndAudited(log, factory.counters(), malloryCertificate, "mallory", WAIT);
      assertEquals(1, factory.counters().failures(), factory.counters().toString());
    }
  }

  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"JSSE", "CONSCRYPT"})
  void aClientTheCrlRevokesIsRefused(TlsEngine engine) throws Exception {
    Path crl = ca.writeCrl(dir.resolve("mallory-" + engine + ".crl"), List.of(mallory.certificate()));
    refusesMallory(server(engine, serverStore).crlFiles(List.of(crl)).build(), engine, aliceStore, malloryStore,
        mallory.certificate());
  }

  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"JSSE", "CONSCRYPT"})
  void aClientTheResponderRevokesIsRefused(TlsEngine engine, @CertificateDirectory Path ocspDir) throws Exception {
    try (OcspResponder ocsp = OcspResponder.create(ca, ocspDir)) {
      IssuedCertificate alice = ca.leaf().commonName("alice").ocspResponder(ocsp.url()).issue();
      IssuedCertificate revoked = ca.leaf().commonName("mallory").ocspResponder(ocsp.url()).issue();
      ocsp.good(alice.certificate()).revoke(revoked.certificate()).start();
      refusesMallory(server(engine, serverStore).ocsp(OcspMode.HARD_FAIL).build(), engine,
          TlsTestConfigs.keyStore(alice, ocspDir, "alice-ocsp"), TlsTestConfigs.keyStore(revoked, ocspDir,
          "mallory-ocsp"), revoked.certificate());
    }
  }

  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"JSSE", "CONSCRYPT"})
  void aResponderThatIsDownFailsSoftOrHard(TlsEngine engine, @CertificateDirectory Path ocspDir) throws Exception {
    // The responder never runs: its port refuses connections.
    IssuedCertificate alice = ca.leaf().commonName("alice")
        .ocspResponder(OcspResponder.create(ca, ocspDir).url()).issue();
    Path aliceOcsp = TlsTestConfigs.keyStore(alice, ocspDir, "alice-down");
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(
            server(engine, serverStore).ocsp(OcspMode.SOFT_FAIL).build());
        EchoServer server = EchoServer.start(factory)) {
      assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
      String warning = log.awaitLines("could not be determined, accepted because", 1, WAIT).get(0);
      assertTrue(warning.contains("serial " + RevokedPeer.serial(alice.certificate())), warning);
      assertTrue(warning.contains("securethrift.tls.revocation.ocsp=soft-fail"), warning);
    }
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(
            server(engine, serverStore).ocsp(OcspMode.HARD_FAIL).build());
        EchoServer server = EchoServer.start(factory)) {
      refused(client(engine, aliceOcsp), server.port());
      Await.until("a tls-alert failure", WAIT, () -> factory.counters().failures(AuthFailure.TLS_ALERT) == 1);
      String audit = log.awaitLines(" cause=tls-alert ", 1, WAIT).get(0);
      assertTrue(audit.contains("the client's certificate serial " + RevokedPeer.serial(alice.certificate())),
          audit);
      assertTrue(audit.contains("has a revocation status that could not be determined"), audit);
      assertTrue(audit.contains("refused because securethrift.tls.revocation.ocsp=hard-fail"), audit);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"JSSE", "CONSCRYPT"})
  void aClientRefusesARevokedServer(TlsEngine engine, @CertificateDirectory Path serverDir) throws Exception {
    IssuedCertificate revokedServer = ca.leaf().issue();
    Path revokedStore = TlsTestConfigs.keyStore(revokedServer, serverDir, "revoked-server");
    Path crl = ca.writeCrl(serverDir.resolve("server.crl"), List.of(revokedServer.certificate()));
    try (ServerTransportFactory factory = ServerTransportFactory.create(
            TlsTestConfigs.tls(engine, revokedStore, trustStore).build());
        EchoServer server = EchoServer.start(factory)) {
      String error = refused(TlsTestConfigs.tls(engine, null, trustStore).crlFiles(List.of(crl)).build(),
          server.port());
      assertTrue(error.contains("the server's certificate serial "
          + RevokedPeer.serial(revokedServer.certificate()) + " (subject CN=localhost"), error);
      assertTrue(error.contains(") is revoked: reason KEY_COMPROMISE"), error);
      // The same client without the CRL is served: the refusal was the revocation's.
      call(TlsTestConfigs.tls(engine, null, trustStore).build(), server.port());
    }
  }

  @Test
  void aReplacedCrlFileTakesEffectAtTheNextReload(@CertificateDirectory Path crlDir) throws Exception {
    Path crl = ca.writeCrl(crlDir.resolve("current.crl"), List.of());
    SecurityConfig config = server(TlsEngine.JSSE, serverStore).crlFiles(List.of(crl))
        .tlsReloadInterval(Duration.ofMillis(200)).build();
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(config);
        EchoServer server = EchoServer.start(factory)) {
      SecurityConfig alice = client(TlsEngine.JSSE, aliceStore);
      call(alice, server.port());
      call(client(TlsEngine.JSSE, malloryStore), server.port());
      ca.writeCrl(crl, List.of(mallory.certificate()));
      Await.until("mallory is refused", WAIT, () -> {
        try {
          call(client(TlsEngine.JSSE, malloryStore), server.port());
          return false;
        } catch (TException refused) {
          return true;
        }
      });
      RevokedPeer.assertRefusedAndAudited(log, factory.counters(), mallory.certificate(), "mallory", WAIT);
      call(alice, server.port());
    }
  }

  @Test
  void badRevocationSettingsNameTheirKey(@CertificateDirectory Path badDir) throws Exception {
    Path missing = badDir.resolve("missing.crl");
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(
        Map.of("securethrift.tls.revocation.crl.files", missing.toString())));
    assertEquals("securethrift.tls.revocation.crl.files", e.key());
    assertTrue(e.getMessage().contains(missing + " does not exist"), e.getMessage());

    Path notACrl = Files.writeString(badDir.resolve("not.crl"), "not a CRL", StandardCharsets.US_ASCII);
    e = assertThrows(ConfigException.class, () -> ServerTransportFactory.create(
        server(TlsEngine.JSSE, serverStore).crlFiles(List.of(notACrl)).build()));
    assertEquals("securethrift.tls.revocation.crl.files", e.key());
    assertTrue(e.getMessage().contains(notACrl.toString()), e.getMessage());

    e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(
        Map.of("securethrift.tls.revocation.ocsp", "strict")));
    assertTrue(e.getMessage().contains("accepted values: off, soft-fail, hard-fail"), e.getMessage());

    e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(
        Map.of("securethrift.tls.revocation.ocsp", "hard-fail",
            "securethrift.tls.revocation.ocsp.responder", "ldap://ocsp.example.com")));
    assertEquals("securethrift.tls.revocation.ocsp.responder", e.key());

    e = assertThrows(ConfigException.class, () -> SecurityConfig.builder()
        .ocspResponder(URI.create("http://ocsp.example.com")).build());
    assertEquals("securethrift.tls.revocation.ocsp.responder", e.key());
    assertTrue(e.getMessage().contains("securethrift.tls.revocation.ocsp is off"), e.getMessage());
  }
}
