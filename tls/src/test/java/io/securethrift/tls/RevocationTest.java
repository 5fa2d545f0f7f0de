package io.securethrift.tls;

import static io.securethrift.tls.EchoCalls.call;
import static io.securethrift.tls.EchoCalls.refused;
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
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.RevokedPeer;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.OcspResponder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.thrift.TException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Revocation on the thread-pool server and the client, on both engines, against CRLs the test CA issues and a real
 * {@code openssl ocsp} responder: a revoked client is refused with the {@code tls-alert} audit cause and a message
 * naming its serial, a good one is served; a client refuses a revoked server; with the responder down, soft-fail lets
 * the handshake through and hard-fail refuses it; a CRL file replaced at runtime takes effect at the next reload. OCSP
 * responses are kept (the responder, behind a counting relay, is asked once per certificate) until the cache maximum,
 * a responder that cannot be asked is remembered, and hostile answers are refused with the reason named.
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

  @EachTlsEngine
  void aClientTheCrlRevokesIsRefused(TlsEngine engine) throws Exception {
    Path crl = ca.writeCrl(dir.resolve("mallory-" + engine + ".crl"), List.of(mallory.certificate()));
    refusesMallory(server(engine, serverStore).crlFiles(List.of(crl)).build(), engine, aliceStore, malloryStore,
        mallory.certificate());
  }

  @EachTlsEngine
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

  @EachTlsEngine
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

  @EachTlsEngine
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

  @EachTlsEngine
  void aKeptResponseAnswersLaterHandshakesAndARevokedOneStillRefuses(TlsEngine engine,
      @CertificateDirectory Path ocspDir) throws Exception {
    try (OcspResponder ocsp = OcspResponder.create(ca, ocspDir);
        CountingServer relay = CountingServer.relayTo(ocsp.port())) {
      IssuedCertificate alice = ca.leaf().commonName("alice").ocspResponder(relay.url()).issue();
      IssuedCertificate revoked = ca.leaf().commonName("mallory").ocspResponder(relay.url()).issue();
      ocsp.good(alice.certificate()).revoke(revoked.certificate()).start();
      Path aliceOcsp = TlsTestConfigs.keyStore(alice, ocspDir, "alice-kept");
      Path malloryOcsp = TlsTestConfigs.keyStore(revoked, ocspDir, "mallory-kept");
      try (LogCapture log = LogCapture.start();
          ServerTransportFactory factory = ServerTransportFactory.create(
              server(engine, serverStore).ocsp(OcspMode.HARD_FAIL).build());
          EchoServer server = EchoServer.start(factory)) {
        assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
        assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
        assertEquals(1, relay.requests(), "the responder is asked once about alice");
        refused(client(engine, malloryOcsp), server.port());
        RevokedPeer.assertRefusedAndAudited(log, factory.counters(), revoked.certificate(), "mallory", WAIT);
        refused(client(engine, malloryOcsp), server.port());
        Await.until("a second tls-alert failure", WAIT,
            () -> factory.counters().failures(AuthFailure.TLS_ALERT) == 2);
        List<String> audits = log.awaitLines(" cause=tls-alert ", 2, WAIT);
        assertTrue(audits.get(1).contains(RevokedPeer.serial(revoked.certificate()) + " (subject CN=mallory")
            && audits.get(1).contains(") is revoked: reason KEY_COMPROMISE"), audits.get(1));
        assertEquals(2, relay.requests(), "the responder is asked once about mallory");
      }
    }
  }

  @EachTlsEngine
  void aKeptGoodIsAskedForAgainOnceTheCacheMaximumHasPassed(TlsEngine engine, @CertificateDirectory Path ocspDir)
      throws Exception {
    try (OcspResponder ocsp = OcspResponder.create(ca, ocspDir);
        CountingServer relay = CountingServer.relayTo(ocsp.port())) {
      IssuedCertificate alice = ca.leaf().commonName("alice").ocspResponder(relay.url()).issue();
      ocsp.good(alice.certificate()).start();
      Path aliceOcsp = TlsTestConfigs.keyStore(alice, ocspDir, "alice-capped");
      try (LogCapture log = LogCapture.start();
          ServerTransportFactory factory = ServerTransportFactory.create(server(engine, serverStore)
              .ocsp(OcspMode.HARD_FAIL).ocspCacheMax(Duration.ofMillis(300)).build());
          EchoServer server = EchoServer.start(factory)) {
        assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
        assertEquals(1, relay.requests());
        ocsp.revoke(alice.certificate());
        Await.until("alice is refused once the kept good has expired", WAIT, () -> {
          try {
            call(client(engine, aliceOcsp), server.port());
            return false;
          } catch (TException refused) {
            return true;
          }
        });
        RevokedPeer.assertRefusedAndAudited(log, factory.counters(), alice.certificate(), "alice", WAIT);
        assertTrue(relay.requests() >= 2, "asked again: " + relay.requests());
      }
    }
  }

  @EachTlsEngine
  void aResponderThatDoesNotAnswerIsRememberedUnderSoftFail(TlsEngine engine, @CertificateDirectory Path ocspDir)
      throws Exception {
    try (CountingServer silent = CountingServer.silent()) {
      IssuedCertificate alice = ca.leaf().commonName("alice").ocspResponder(silent.url()).issue();
      Path aliceOcsp = TlsTestConfigs.keyStore(alice, ocspDir, "alice-silent");
      // The handshake deadline must outlast the fetch's, as docs/tls.md says (the test configurations' is 5 s).
      try (LogCapture log = LogCapture.start();
          ServerTransportFactory factory = ServerTransportFactory.create(server(engine, serverStore)
              .ocsp(OcspMode.SOFT_FAIL).handshakeTimeout(Duration.ofSeconds(15)).build());
          EchoServer server = EchoServer.start(factory)) {
        assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
        assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
        // Once, by the cache: the JDK's checker did not ask again, and the second handshake did not wait again.
        assertEquals(1, silent.requests());
        String warning = log.awaitLines("could not be determined, accepted because", 1, WAIT).get(0);
        assertTrue(warning.contains("the OCSP responder " + silent.url() + " could not be asked (not asked again for"
            + " 30 s): Read timed out"), warning);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("hostileResponders")
  @ExtendWith(RunnableEnginesOnly.class)
  void aHostileResponderIsRefusedCleanlyAndFailsHardOrSoft(TlsEngine engine, String kind, String why,
      @CertificateDirectory Path ocspDir) throws Exception {
    try (CountingServer hostile = hostile(kind)) {
      IssuedCertificate alice = ca.leaf().commonName("alice").ocspResponder(hostile.url()).issue();
      Path aliceOcsp = TlsTestConfigs.keyStore(alice, ocspDir, "alice-" + kind);
      try (LogCapture log = LogCapture.start();
          ServerTransportFactory factory = ServerTransportFactory.create(
              server(engine, serverStore).ocsp(OcspMode.HARD_FAIL).build());
          EchoServer server = EchoServer.start(factory)) {
        refused(client(engine, aliceOcsp), server.port());
        refused(client(engine, aliceOcsp), server.port());
        Await.until("two tls-alert failures", WAIT, () -> factory.counters().failures(AuthFailure.TLS_ALERT) == 2);
        String audit = log.awaitLines(" cause=tls-alert ", 1, WAIT).get(0);
        assertTrue(audit.contains("has a revocation status that could not be determined (the OCSP responder "
            + hostile.url() + " could not be asked"), audit);
        assertTrue(audit.contains(why), audit);
        assertTrue(audit.contains("refused because securethrift.tls.revocation.ocsp=hard-fail"), audit);
        assertEquals(1, hostile.requests(), "the failure is remembered");
      }
      try (ServerTransportFactory factory = ServerTransportFactory.create(
              server(engine, serverStore).ocsp(OcspMode.SOFT_FAIL).build());
          EchoServer server = EchoServer.start(factory)) {
        assertTrue(call(client(engine, aliceOcsp), server.port()).contains("principal=alice"));
      }
    }
  }

  static Stream<Arguments> hostileResponders() {
    Stream.Builder<Arguments> cases = Stream.builder();
    for (TlsEngine engine : List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT, TlsEngine.OPENSSL)) {
      cases.add(Arguments.of(engine, "announced", "it announced 2147483647 bytes, more than the 65536"));
      cases.add(Arguments.of(engine, "streamed", "its response is longer than the 65536 bytes"));
      cases.add(Arguments.of(engine, "der-length", "out of bounds length"));
      cases.add(Arguments.of(engine, "error", "it answered HTTP 500"));
    }
    return cases.build();
  }

  private static CountingServer hostile(String kind) {
    String ok = "HTTP/1.0 200 OK\r\nContent-Type: application/ocsp-response\r\n";
    switch (kind) {
      case "announced":
        return CountingServer.answering((ok + "Content-Length: 2147483647\r\n\r\n0")
            .getBytes(StandardCharsets.US_ASCII));
      case "streamed":
        return CountingServer.streaming(1 << 20);
      case "der-length": {
        // A SEQUENCE claiming 2 GiB, then three bytes.
        byte[] head = (ok + "Content-Length: 9\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] body = {0x30, (byte) 0x84, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0a, 0x01, 0x00};
        byte[] response = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, response, head.length, body.length);
        return CountingServer.answering(response);
      }
      default:
        return CountingServer.answering("HTTP/1.0 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
    }
  }

  @Test
  void withoutBouncyCastleTheOcspCacheNamesTheDependencyAndTheSetting() {
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> PemSupport.require(
        OcspResponseCache.missingBouncyCastle(), ClassLoader.getPlatformClassLoader()));
    assertEquals("securethrift.tls.revocation.ocsp.cache.max is above 0, and caching OCSP responses needs"
        + " BouncyCastle, an optional dependency of securethrift-tls: add org.bouncycastle:bcpkix-jdk18on (which"
        + " brings bcprov-jdk18on and bcutil-jdk18on), or set it to 0", e.getMessage());
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
