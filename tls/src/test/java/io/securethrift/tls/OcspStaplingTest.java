package io.securethrift.tls;

import static io.securethrift.tls.EchoCalls.call;
import static io.securethrift.tls.EchoCalls.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.OcspMode;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.RevokedPeer;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.OcspResponder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.thrift.TException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A server stapling the OCSP response for its own certificate ({@code securethrift.tls.revocation.ocsp.stapling}),
 * against a real {@code openssl ocsp} responder behind a counting relay: clients checking OCSP under hard failure,
 * whose own way to a responder answers nothing but HTTP 500, accept a good server on the staple alone and refuse a
 * revoked one with the usual revoked message; a server whose responder is down still handshakes, and the client
 * decides by its own policy. Two engines staple: the JDK's, whose {@code jdk.tls.server.enableStatusRequestExtension}
 * is set here only while a server's context is created (each JDK context reads it then) and restored at once, and
 * {@code openssl}, which staples what securethrift fetches for it, also after a reload to a new certificate. Without
 * that property, on Conscrypt, and with a key store lacking the issuer, the server is refused at creation.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class OcspStaplingTest {
  private static final String JDK_SERVER_STAPLING = "jdk.tls.server.enableStatusRequestExtension";
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static TestCertificateAuthority ca;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority authority, @CertificateDirectory Path directory) {
    ca = authority;
    trustStore = TlsTestConfigs.trustStore(ca, directory);
  }

  /** A stapling server on {@code engine} presenting {@code certificate}. */
  private static ServerTransportFactory staplingServer(TlsEngine engine, IssuedCertificate certificate, Path dir,
      String name) throws Exception {
    return staplingServer(TlsTestConfigs.tls(engine, TlsTestConfigs.keyStore(certificate, dir, name + "-" + engine),
        trustStore));
  }

  /** A stapling server of {@code config}; on JSSE, the JDK property set only while its context is made. */
  private static ServerTransportFactory staplingServer(SecurityConfig.Builder config) throws Exception {
    SecurityConfig stapling = config.ocspStapling(true).build();
    return withJdkStapling("true", () -> ServerTransportFactory.create(stapling));
  }

  /** What {@code body} returns with the JDK property set to {@code value} (cleared when null), then restored. */
  private static <T> T withJdkStapling(String value, Callable<T> body) throws Exception {
    String was = System.getProperty(JDK_SERVER_STAPLING);
    set(value);
    try {
      return body.call();
    } finally {
      set(was);
    }
  }

  private static void set(String value) {
    if (value == null) {
      System.clearProperty(JDK_SERVER_STAPLING);
    } else {
      System.setProperty(JDK_SERVER_STAPLING, value);
    }
  }

  /** A client checking OCSP whose own requests go to {@code responder}, overriding the certificates' own. */
  private static SecurityConfig client(TlsEngine engine, OcspMode mode, String responder) {
    return TlsTestConfigs.tls(engine, null, trustStore).ocsp(mode).ocspResponder(URI.create(responder)).build();
  }

  /** Stands for a client's blocked way to the responder: counts what it is asked and answers HTTP 500. */
  private static CountingServer blocked() {
    return CountingServer.answering("HTTP/1.0 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII));
  }

  @ParameterizedTest
  @CsvSource({"jsse, jsse", "jsse, conscrypt", "jsse, openssl", "openssl, jsse", "openssl, conscrypt",
      "openssl, openssl"})
  @ExtendWith(RunnableEnginesOnly.class)
  void aClientThatCannotAskTheResponderAcceptsAGoodServerOnItsStaple(TlsEngine serverEngine, TlsEngine clientEngine,
      @CertificateDirectory Path dir) throws Exception {
    try (OcspResponder ocsp = OcspResponder.create(ca, dir);
        CountingServer relay = CountingServer.relayTo(ocsp.port());
        CountingServer blocked = blocked()) {
      IssuedCertificate certificate = ca.leaf().ocspResponder(relay.url()).issue();
      ocsp.good(certificate.certificate()).start();
      try (ServerTransportFactory factory = staplingServer(serverEngine, certificate, dir, "good-server");
          EchoServer server = EchoServer.start(factory)) {
        SecurityConfig client = client(clientEngine, OcspMode.HARD_FAIL, blocked.url());
        call(client, server.port());
        call(client, server.port());
        assertEquals(0, blocked.requests(), "the client asked no responder");
        // Both keep the response until its nextUpdate (ten minutes here).
        assertEquals(1, relay.requests(), "the server asked the responder once");
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"jsse, jsse", "jsse, conscrypt", "openssl, jsse", "openssl, conscrypt", "openssl, openssl"})
  @ExtendWith(RunnableEnginesOnly.class)
  void aRevokedServersStapleMakesTheClientRefuseIt(TlsEngine serverEngine, TlsEngine clientEngine,
      @CertificateDirectory Path dir) throws Exception {
    try (OcspResponder ocsp = OcspResponder.create(ca, dir);
        CountingServer blocked = blocked()) {
      IssuedCertificate certificate = ca.leaf().ocspResponder(ocsp.url()).issue();
      ocsp.revoke(certificate.certificate()).start();
      try (ServerTransportFactory factory = staplingServer(serverEngine, certificate, dir, "revoked-server");
          EchoServer server = EchoServer.start(factory)) {
        assertRevoked(refused(client(clientEngine, OcspMode.HARD_FAIL, blocked.url()), server.port()), certificate);
        assertEquals(0, blocked.requests(), "the staple decided");
      }
    }
  }

  private static void assertRevoked(String error, IssuedCertificate certificate) {
    assertTrue(error.contains("the server's certificate serial " + RevokedPeer.serial(certificate.certificate())
        + " (subject CN=localhost"), error);
    assertTrue(error.contains(") is revoked: reason KEY_COMPROMISE"), error);
  }

  @ParameterizedTest
  @CsvSource({"jsse, jsse", "jsse, conscrypt", "openssl, jsse", "openssl, conscrypt", "openssl, openssl"})
  @ExtendWith(RunnableEnginesOnly.class)
  void aServerWhoseResponderIsDownStaplesNothingAndTheClientDecides(TlsEngine serverEngine, TlsEngine clientEngine,
      @CertificateDirectory Path dir) throws Exception {
    // The responder never runs: its port refuses connections.
    String down = OcspResponder.create(ca, dir).url();
    IssuedCertificate certificate = ca.leaf().ocspResponder(down).issue();
    try (CountingServer blocked = blocked();
        LogCapture log = LogCapture.start();
        ServerTransportFactory factory = staplingServer(serverEngine, certificate, dir, "unstapled-server");
        EchoServer server = EchoServer.start(factory)) {
      call(client(clientEngine, OcspMode.SOFT_FAIL, blocked.url()), server.port());
      assertEquals(1, blocked.requests(), "without a staple the client asked itself");
      String warning = log.awaitLines("could not be determined, accepted because", 1, WAIT).get(0);
      assertTrue(warning.contains("serial " + RevokedPeer.serial(certificate.certificate())), warning);
      String error = refused(client(clientEngine, OcspMode.HARD_FAIL, blocked.url()), server.port());
      assertTrue(error.contains("has a revocation status that could not be determined"), error);
      if (serverEngine == TlsEngine.OPENSSL) {
        List<String> failures = log.lines("no OCSP response to staple for this server's certificate");
        assertEquals(1, failures.size(), "logged once: " + failures);
        assertTrue(failures.get(0).contains("serial " + certificate.certificate().getSerialNumber().toString(16)),
            failures.get(0));
        assertTrue(failures.get(0).contains("the OCSP responder " + down + " could not be asked"),
            failures.get(0));
      }
    }
  }

  @Test
  void anOpensslServerStaplesTheNewCertificatesResponseAfterAReload(@CertificateDirectory Path dir)
      throws Exception {
    assumeOpensslRuns();
    try (OcspResponder ocsp = OcspResponder.create(ca, dir);
        CountingServer relay = CountingServer.relayTo(ocsp.port());
        CountingServer blocked = blocked()) {
      IssuedCertificate good = ca.leaf().ocspResponder(relay.url()).issue();
      IssuedCertificate revoked = ca.leaf().ocspResponder(relay.url()).issue();
      ocsp.good(good.certificate()).revoke(revoked.certificate()).start();
      Path store = TlsTestConfigs.keyStore(good, dir, "reloaded-server");
      try (ServerTransportFactory factory = staplingServer(TlsTestConfigs.tls(TlsEngine.OPENSSL, store, trustStore)
              .tlsReloadInterval(Duration.ofMillis(1)));
          EchoServer server = EchoServer.start(factory)) {
        SecurityConfig client = client(TlsEngine.OPENSSL, OcspMode.HARD_FAIL, blocked.url());
        call(client, server.port());
        TlsTestConfigs.keyStore(revoked, dir, "reloaded-server");
        // The next handshake after the change loads the new certificate and fetches its response in the background;
        // the new certificate is served once it is fetched.
        assertRevoked(awaitRefused(client, server.port()), revoked);
        assertEquals(0, blocked.requests(), "the staples decided");
        assertEquals(2, relay.requests(), "the server asked once for each certificate");
      }
    }
  }

  @Test
  void aReloadDoesNotHoldHandshakesWhileTheNewCertificatesResponderIsSilent(@CertificateDirectory Path dir)
      throws Exception {
    assumeOpensslRuns();
    try (OcspResponder ocsp = OcspResponder.create(ca, dir);
        CountingServer silent = CountingServer.silent();
        CountingServer blocked = blocked()) {
      IssuedCertificate good = ca.leaf().ocspResponder(ocsp.url()).issue();
      IssuedCertificate next = ca.leaf().ocspResponder(silent.url()).issue();
      ocsp.good(good.certificate()).start();
      Path store = TlsTestConfigs.keyStore(good, dir, "silent-reload-server");
      try (ServerTransportFactory factory = staplingServer(TlsTestConfigs.tls(TlsEngine.OPENSSL, store, trustStore)
              .tlsReloadInterval(Duration.ofMillis(1)));
          EchoServer server = EchoServer.start(factory)) {
        SecurityConfig client = client(TlsEngine.OPENSSL, OcspMode.HARD_FAIL, blocked.url());
        call(client, server.port());
        TlsTestConfigs.keyStore(next, dir, "silent-reload-server");
        // This handshake finds the change; had it waited for the silent responder, it would then have served the new
        // certificate without a staple, which this client, unable to ask a responder itself, refuses.
        call(client, server.port());
        Await.until("the new certificate's response asked for", WAIT, () -> silent.requests() == 1);
        assertEquals(0, blocked.requests(), "the previous certificate's staple decided");
        // Once the fetch times out, the new certificate is served without a staple and the client decides.
        String error = awaitRefused(client, server.port());
        assertTrue(error.contains("has a revocation status that could not be determined"), error);
      }
    }
  }

  @Test
  void anOpensslServerFetchesItsNextStapleBeforeTheLastExpires(@CertificateDirectory Path dir) throws Exception {
    assumeOpensslRuns();
    try (OcspResponder ocsp = OcspResponder.create(ca, dir);
        CountingServer relay = CountingServer.relayTo(ocsp.port());
        CountingServer blocked = blocked()) {
      IssuedCertificate certificate = ca.leaf().ocspResponder(relay.url()).issue();
      ocsp.good(certificate.certificate()).start();
      Path store = TlsTestConfigs.keyStore(certificate, dir, "refreshing-server");
      // Each response is stapled for 4 s at most, and fetched again in the background after 2.
      try (ServerTransportFactory factory = staplingServer(TlsTestConfigs.tls(TlsEngine.OPENSSL, store, trustStore)
              .ocspCacheMax(Duration.ofSeconds(4)));
          EchoServer server = EchoServer.start(factory)) {
        SecurityConfig client = client(TlsEngine.OPENSSL, OcspMode.HARD_FAIL, blocked.url());
        // Handshakes through two refreshes, over 4 s: without them the staple would expire and the client refuse.
        Await.until("two refreshes of the staple", WAIT, () -> {
          try {
            call(client, server.port());
          } catch (TException e) {
            throw new AssertionError("a handshake while the staple is refreshed", e);
          }
          return relay.requests() >= 3;
        });
        call(client, server.port());
        assertEquals(0, blocked.requests(), "every handshake had a staple");
      }
    }
  }

  /** Skips the test, with the engine's reason, where engine openssl cannot run (as {@link RunnableEnginesOnly}). */
  private static void assumeOpensslRuns() {
    Optional<String> unavailable = RunnableEnginesOnly.unavailableReason(TlsEngine.OPENSSL);
    assumeTrue(unavailable.isEmpty(), () -> "engine openssl cannot run here: " + unavailable.get());
  }

  /** The error of the first call {@code client} fails, calling until one does. */
  private static String awaitRefused(SecurityConfig client, int port) {
    AtomicReference<String> error = new AtomicReference<>();
    Await.until("a refused handshake", WAIT, () -> {
      try {
        call(client, port);
        return false;
      } catch (TException refused) {
        error.set(refused.getMessage());
        return true;
      }
    });
    return error.get();
  }

  @Test
  void aJsseServerIsRefusedWithoutTheJdkProperty(@CertificateDirectory Path dir) throws Exception {
    SecurityConfig config = TlsTestConfigs.tls(TlsEngine.JSSE, TlsTestConfigs.keyStore(ca.leaf().issue(), dir,
        "jsse-server"), trustStore).ocspStapling(true).build();
    ConfigException e = withJdkStapling(null,
        () -> assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config)));
    assertEquals("securethrift.tls.revocation.ocsp.stapling", e.key());
    assertTrue(e.getMessage().contains("true, but the JDK staples only when the server's JVM runs with"
        + " -Djdk.tls.server.enableStatusRequestExtension=true"), e.getMessage());
  }

  @Test
  void aKeyStoreWithoutTheIssuerIsRefused(@CertificateDirectory Path dir) throws Exception {
    IssuedCertificate issued = ca.leaf().issue();
    KeyStore leafOnly = KeyStore.getInstance("PKCS12");
    leafOnly.load(null, null);
    char[] password = "changeit".toCharArray();
    leafOnly.setKeyEntry("server", issued.privateKey(), password, new Certificate[] {issued.certificate()});
    Path file = dir.resolve("leaf-only.p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      leafOnly.store(out, password);
    }
    SecurityConfig config = TlsTestConfigs.tls(TlsEngine.JSSE, null, trustStore)
        .keyStore(file, StoreType.PKCS12, Secret.of(password)).ocspStapling(true).build();
    ConfigException e = withJdkStapling("true",
        () -> assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config)));
    assertEquals("securethrift.tls.revocation.ocsp.stapling", e.key());
    assertTrue(e.getMessage().contains(file + " holds only its certificate, but stapling its OCSP response"
        + " (securethrift.tls.revocation.ocsp.stapling) needs the issuing CA's certificate after it"), e.getMessage());
  }

  @Test
  void aConscryptServerIsRefusedAndAClientIgnoresTheSetting(@CertificateDirectory Path dir) throws Exception {
    SecurityConfig config = TlsTestConfigs.tls(TlsEngine.CONSCRYPT, TlsTestConfigs.keyStore(ca.leaf().issue(), dir,
        "conscrypt-server"), trustStore).ocspStapling(true).build();
    ConfigException e = assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config));
    assertEquals("securethrift.tls.revocation.ocsp.stapling", e.key());
    assertTrue(e.getMessage().contains("true, but Conscrypt 2."), e.getMessage());
    assertTrue(e.getMessage().contains(" has no public way to give a server the OCSP response to staple; use"
        + " securethrift.tls.engine=jsse with -Djdk.tls.server.enableStatusRequestExtension=true"), e.getMessage());
    ClientTransportFactory.create(config).close();
  }

}
