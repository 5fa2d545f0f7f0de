package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.spi.TlsEngineProvider;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Engine names, and their resolution in one place when a configuration is built: core alone contributes jsse, so
 * here {@code auto} is jsse and every other name is unknown.
 */
class TlsEngineTest {
  private static final String KEY = "securethrift.tls.engine";

  @Test
  void namesAreValuesEqualByTheirToken() {
    assertSame(TlsEngine.CONSCRYPT, TlsEngine.of("conscrypt"));
    assertEquals(TlsEngine.of("vendor-tls"), TlsEngine.of("vendor-tls"));
    assertEquals(TlsEngine.of("vendor-tls").hashCode(), TlsEngine.of("vendor-tls").hashCode());
    assertNotEquals(TlsEngine.JSSE, TlsEngine.of("vendor-tls"));
    assertEquals("openssl", TlsEngine.OPENSSL.toString());
    assertTrue(TlsEngine.AUTO.isAuto() && !TlsEngine.JSSE.isAuto());
    assertThrows(IllegalArgumentException.class, () -> TlsEngine.of("JSSE"));
    assertThrows(IllegalArgumentException.class, () -> TlsEngine.of(" jsse"));
  }

  @Test
  void parsingAcceptsAutoAndContributedTokensOnly() {
    assertSame(TlsEngine.AUTO, TlsEngine.parse(KEY, "auto"));
    assertSame(TlsEngine.JSSE, TlsEngine.parse(KEY, " jsse "));
    ConfigException e = assertThrows(ConfigException.class, () -> TlsEngine.parse(KEY, "conscrypt"));
    assertEquals(KEY, e.key());
    assertTrue(e.getMessage().contains("'conscrypt' is not accepted; accepted values: auto, jsse (")
        && e.getMessage().contains("conscrypt and openssl by securethrift-tls"), e.getMessage());
  }

  @Test
  void autoIsResolvedWhenATlsConfigurationIsBuiltAndStaysAutoInItsProperties() {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS).build();
    assertEquals(TlsEngine.JSSE, config.tls().engine());
    assertEquals("jsse", config.tls().engineProvider().token());
    assertTrue(config.tls().engineProvider().offersSslContext());
    assertEquals(Optional.empty(), config.tls().engineProvider().provider());
    assertEquals("auto", config.toProperties().get(KEY));
    assertEquals("auto", config.toBuilder().build().toProperties().get(KEY));
    assertSame(config.tls().engineProvider(),
        SecurityConfig.builder().mode(SecurityMode.TLS).build().tls().engineProvider(), "resolved once per JVM");
  }

  @Test
  void anUnknownNameGivenInCodeIsRefusedWhenTlsIsOn() {
    SecurityConfig.Builder builder = SecurityConfig.builder().tlsEngine(TlsEngine.of("boringssl"));
    assertEquals("boringssl", builder.build().toProperties().get(KEY), "a plain configuration runs no engine");
    ConfigException e = assertThrows(ConfigException.class, () -> builder.mode(SecurityMode.TLS).build());
    assertEquals(KEY, e.key());
    assertTrue(e.getMessage().startsWith(KEY + ": 'boringssl' is not accepted; accepted values: auto, jsse"),
        e.getMessage());
  }

  @Test
  void anEngineThatCannotRunHereIsRefusedWithTheReasonAndTheFix() {
    SecurityConfig.Builder builder = SecurityConfig.builder().mode(SecurityMode.SASL_OVER_TLS)
        .tlsEngine(new WithoutItsLibrary());
    ConfigException e = assertThrows(ConfigException.class, builder::build);
    assertEquals(KEY, e.key());
    assertEquals(KEY + ": vendor-tls (a vendor's engine) does not run in this JVM: libvendor.so is not on"
        + " java.library.path; install the vendor's native package, or use jsse", e.getMessage());
  }

  @Test
  void aPlainConfigurationIsNotRefusedForItsEngine() {
    SecurityConfig plain = SecurityConfig.fromProperties(Map.of("securethrift.mode", "sasl"));
    assertEquals(TlsEngine.JSSE, plain.tls().engine(), "resolved on first use when TLS is off");
    SecurityConfig withUnrunnable = SecurityConfig.builder().mode(SecurityMode.SASL)
        .tlsEngine(new WithoutItsLibrary()).build();
    assertEquals("vendor-tls", withUnrunnable.toProperties().get(KEY));
    assertThrows(ConfigException.class, () -> withUnrunnable.tls().engineProvider());
  }

  @Test
  void anEngineGivenInCodeIsCarriedByToBuilderAndReplacedByAName() {
    JdkUnderAnotherName own = new JdkUnderAnotherName();
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(own).build();
    assertSame(own, config.tls().engineProvider());
    assertEquals(TlsEngine.of("jdk-again"), config.tls().engine());
    assertSame(own, config.toBuilder().build().tls().engineProvider());
    TlsSettings named = config.toBuilder().tlsEngine(TlsEngine.JSSE).build().tls();
    assertEquals(TlsEngine.JSSE, named.engine());
    assertFalse(named.engineProvider() instanceof JdkUnderAnotherName);
  }

  /** An engine whose native library is missing, as Conscrypt's is on an unsupported platform. */
  private static final class WithoutItsLibrary extends JdkUnderAnotherName {
    @Override
    public String token() {
      return "vendor-tls";
    }

    @Override
    public String description() {
      return "a vendor's engine";
    }

    @Override
    public Optional<String> unavailableReason() {
      return Optional.of("libvendor.so is not on java.library.path");
    }

    @Override
    public String fix() {
      return "install the vendor's native package, or use jsse";
    }
  }

  /** The JDK's engine under a name of its own, as a user might supply one. */
  private static class JdkUnderAnotherName implements TlsEngineProvider {
    @Override
    public String token() {
      return "jdk-again";
    }

    @Override
    public String description() {
      return "the JDK's engine, supplied in code";
    }
  }
}
