package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one mode vocabulary: every canonical name reads back as itself, older spellings as their canonical name. */
class BenchModeTest {
  @ParameterizedTest
  @ValueSource(strings = {"none", "tls", "tls-jsse", "tls-conscrypt", "tls-openssl", "tls12", "tls12-jsse",
      "tls13-jsse", "tls12-conscrypt", "tls12-openssl", "tls13-openssl", "sasl-auth", "sasl-auth-int",
      "sasl-auth-conf", "sasl-auth-conf-gcm", "sasl-auth-conf-gcm-conscrypt", "sasl-auth-conf-gcm-accp",
      "sasl-auth-conf-provider", "sasl-auth-conf-libthrift", "sasl-auth-libthrift", "sasl-auth-int-libthrift",
      "sasl-over-tls"})
  void everyCanonicalNameReadsBackAsItself(String name) {
    BenchMode mode = BenchMode.parse("--modes", name);
    assertEquals(name, mode.name());
    assertEquals(mode, BenchMode.parse("--modes", mode.toString()));
  }

  @ParameterizedTest
  @CsvSource({"plain,none", "PLAIN,none", " none ,none", "ssl-jsse,tls-jsse", "ssl,tls", "ssl12-openssl,tls12-openssl",
      "auth,sasl-auth", "auth-int,sasl-auth-int", "auth-conf,sasl-auth-conf", "auth-conf-gcm,sasl-auth-conf-gcm",
      "auth-conf-gcm-accp,sasl-auth-conf-gcm-accp", "auth-libthrift,sasl-auth-libthrift",
      "auth-conf-provider,sasl-auth-conf-provider"})
  void olderSpellingsAreAliases(String alias, String canonical) {
    assertEquals(canonical, BenchMode.parse("--modes", alias).name());
  }

  @Test
  void theModeSaysWhatEachConnectionRuns() {
    BenchMode zk = BenchMode.parse("m", "tls13-openssl");
    assertEquals(SecurityMode.TLS, zk.security());
    assertEquals(Optional.of(TlsEngine.OPENSSL), zk.engine());
    assertEquals(Optional.of("TLSv1.3"), zk.tlsVersion());
    assertTrue(zk.tls() && !zk.sasl());

    BenchMode ingest = BenchMode.parse("m", "tls-conscrypt");
    assertEquals(Optional.empty(), ingest.tlsVersion(), "no version: the newest both ends have");

    BenchMode gcm = BenchMode.parse("m", "sasl-auth-conf-gcm-conscrypt");
    assertEquals(QualityOfProtection.AUTH_CONF, gcm.qop());
    assertEquals(BenchMode.SaslLayer.AES_GCM_CONSCRYPT, gcm.layer());
    assertTrue(gcm.layer().aesGcm() && !gcm.layer().onLibthrift());
    assertTrue(BenchMode.parse("m", "sasl-auth-conf-provider").layer().onLibthrift());
    assertTrue(BenchMode.parse("m", "sasl-auth-conf-provider").aesGcm(), "the provider negotiates AES-GCM");
    assertFalse(BenchMode.parse("m", "sasl-auth-conf-libthrift").aesGcm(), "libthrift's transports: GSS wrap");
    assertFalse(BenchMode.parse("m", "tls-jsse").aesGcm() || BenchMode.parse("m", "tls-jsse").onLibthrift());

    BenchMode overTls = BenchMode.parse("m", "sasl-over-tls");
    assertEquals(SecurityMode.SASL_OVER_TLS, overTls.security());
    assertEquals(QualityOfProtection.AUTH, overTls.qop());
    assertTrue(overTls.sasl() && !overTls.tls());

    assertThrows(IllegalStateException.class, () -> BenchMode.parse("m", "none").qop());
    assertThrows(IllegalStateException.class, () -> BenchMode.parse("m", "tls").layer());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "tls14-jsse", "tls-boringssl", "tls-auto", "sasl", "sasl-auth-gcm",
      "sasl-auth-int-provider", "sasl-auth-conf-aes", "kerberos", "sasl-over-tls-jsse"})
  void textOutsideTheGrammarIsRefusedWithTheGrammar(String text) {
    ConfigException e = assertThrows(ConfigException.class, () -> BenchMode.parse("--modes", text));
    assertEquals("--modes", e.key());
    assertTrue(e.getMessage().contains(BenchMode.GRAMMAR), e.getMessage());
  }

  @Test
  void aModeSetReadsOnlyItsModesAndPutsPlainTlsOnItsDefaultEngine() {
    ModeSet ingest = ModeSet.of("ingest-bench", TlsEngine.CONSCRYPT, "none", "tls-jsse", "tls-conscrypt",
        "sasl-auth");
    assertEquals(List.of("none", "tls-jsse", "tls-conscrypt", "sasl-auth"), ingest.names());
    assertEquals(List.of(BenchMode.parse("m", "tls-conscrypt"), BenchMode.parse("m", "tls-jsse"),
        BenchMode.parse("m", "none")), ingest.parse("--modes", List.of("tls", "ssl-jsse", "plain")));
    assertEquals(ingest.all(), ingest.parseList("--modes", "none, tls-jsse,,tls-conscrypt,auth"));

    ConfigException notRun = assertThrows(ConfigException.class, () -> ingest.parse("--modes", "tls12-openssl"));
    assertEquals("--modes: 'tls12-openssl' is not a mode ingest-bench runs; it runs none, tls-jsse, tls-conscrypt,"
        + " sasl-auth", notRun.getMessage());
    ConfigException twice = assertThrows(ConfigException.class,
        () -> ingest.parse("--modes", List.of("tls-conscrypt", "tls")));
    assertTrue(twice.getMessage().contains("'tls' names tls-conscrypt, which is already listed"), twice.getMessage());
    assertThrows(ConfigException.class, () -> ingest.parse("--modes", List.of()));

    ModeSet server = ModeSet.of("server-bench", null, "none", "tls", "sasl-auth");
    assertEquals("tls", server.parse("--modes", "ssl").name(), "no default engine: the benchmark picks it");
    assertThrows(IllegalArgumentException.class, () -> ModeSet.of("peer-bench", null, "plain"),
        "a benchmark lists its modes by their canonical names");
  }
}
