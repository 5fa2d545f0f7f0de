package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real JDK engines with a certificate from the test CA, handshaking in memory. */
class RecordCostTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static SSLContext context;
  private static SSLContext otherCa;

  @BeforeAll
  static void contexts() throws Exception {
    context = context(TestCertificateAuthority.create());
    otherCa = context(TestCertificateAuthority.create());
  }

  private static SSLContext context(TestCertificateAuthority ca) throws Exception {
    IssuedCertificate server = ca.leaf().issue();
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(server.toKeyStore(KeyStoreFormat.PKCS12, "server", PASSWORD), PASSWORD);
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(ca.trustStore(KeyStoreFormat.PKCS12));
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    return context;
  }

  private static SSLEngine engine(SSLContext context, boolean client, String protocol) {
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(client);
    engine.setEnabledProtocols(new String[] {protocol});
    return engine;
  }

  @Test
  void measuresSealAndOpenOnTls13AndTls12() throws Exception {
    for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
      RecordCost cost = RecordCost.measure(engine(context, true, protocol), engine(context, false, protocol));
      assertTrue(cost.measured(), protocol);
      assertTrue(cost.sealUsPerMb() > 0 && cost.openUsPerMb() > 0, protocol + ": " + cost);
      assertTrue(cost.cipherSuite().startsWith("TLS_"), cost.cipherSuite());
      assertEquals(cost.sealUsPerMb(), cost.usPerMb(true));
      assertEquals(cost.openUsPerMb(), cost.usPerMb(false));
      assertTrue(cost.toString().contains(cost.cipherSuite()), cost.toString());
    }
  }

  @Test
  void aClientThatDoesNotTrustTheServerFailsTheHandshake() {
    assertThrows(SSLException.class,
        () -> RecordCost.measure(engine(otherCa, true, "TLSv1.3"), engine(context, false, "TLSv1.3")));
  }

  @Test
  void anEchoInOneProcessSealsAndOpensTheMegabyteBothWays() {
    assertEquals(2 * (500 + 400), new RecordCost(500, 400, "TLS_AES_128_GCM_SHA256").echoUsPerMb());
    assertTrue(Double.isNaN(RecordCost.NONE.echoUsPerMb()));
  }

  @Test
  void nothingMeasuredWithoutTls() {
    assertFalse(RecordCost.NONE.measured());
    assertEquals("no TLS", RecordCost.NONE.toString());
  }

  @Test
  void aModesCostIsTakenOnItsProtocolVersionWithTheBenchmarksCertificates(@TempDir Path dir) throws Exception {
    try (BenchSecurity security = new BenchSecurity(dir)) {
      RecordCost tls13 = RecordCost.of(security, BenchMode.parse("--modes", "tls13-jsse"));
      RecordCost tls12 = RecordCost.of(security, BenchMode.parse("--modes", "tls12-jsse"));
      assertTrue(tls13.cipherSuite().startsWith("TLS_AES_") || tls13.cipherSuite().startsWith("TLS_CHACHA20_"),
          tls13.cipherSuite());
      assertTrue(tls12.cipherSuite().startsWith("TLS_ECDHE_"), tls12.cipherSuite());
      assertTrue(tls13.measured() && tls12.measured());
      assertSame(RecordCost.NONE, RecordCost.of(security, BenchMode.parse("--modes", "none")));
    }
  }

  @Test
  void engineOpensslIsMeasuredThroughItsOwnContexts(@TempDir Path dir) throws Exception {
    Optional<String> unavailable = RunnableEnginesOnly.unavailableReason(TlsEngine.OPENSSL);
    assumeTrue(unavailable.isEmpty(), () -> "engine openssl cannot run here: " + unavailable.get());
    try (BenchSecurity security = new BenchSecurity(dir)) {
      RecordCost openssl = RecordCost.of(security, BenchMode.parse("--modes", "tls-openssl"));
      assertTrue(openssl.measured() && openssl.sealUsPerMb() > 0 && openssl.openUsPerMb() > 0, openssl.toString());
      assertTrue(openssl.cipherSuite().startsWith("TLS_AES_") || openssl.cipherSuite().startsWith("TLS_CHACHA20_"),
          openssl.cipherSuite());
    }
  }
}
