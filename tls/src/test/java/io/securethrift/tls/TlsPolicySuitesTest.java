package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import io.securethrift.core.testing.EachTlsEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The suites each engine enables by default: what it supports within {@link CipherSuites}' rule, in the engine's
 * order. Conscrypt supports {@code TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256}, which a match on "ECDHE" and
 * "CHACHA20_POLY1305" in the name once let through.
 */
class TlsPolicySuitesTest {
  private static final String PSK = "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256";

  @EachTlsEngine
  void defaultSuitesAreTheEnginesSuitesWithinTheRule(TlsEngine engine) throws Exception {
    TlsSettings settings = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine).build().tls();
    TlsEngineContext engines = StandardSslContextFactory.INSTANCE.engineContext(settings, null, Role.CLIENT);
    List<String> supported = Arrays.asList(engines.supportedParameters().getCipherSuites());
    List<String> enabled = Arrays.asList(TlsPolicy.parameters(engines, settings, Role.CLIENT).getCipherSuites());

    List<String> expected = new ArrayList<>(supported);
    expected.retainAll(allowed());
    assertEquals(expected, enabled);
    // Every TLS 1.3 suite and the ECDHE AES-GCM suites of both certificate types survive on every engine.
    assertTrue(enabled.containsAll(CipherSuites.TLS13), enabled.toString());
    assertTrue(enabled.containsAll(CipherSuites.TLS12.subList(0, 4)), enabled.toString());
    assertFalse(enabled.contains(PSK));
    if (engine.equals(TlsEngine.CONSCRYPT)) {
      assertTrue(supported.contains(PSK), "Conscrypt supports the PSK suite the rule refuses: " + supported);
    }
  }

  private static List<String> allowed() {
    List<String> all = new ArrayList<>(CipherSuites.TLS13);
    all.addAll(CipherSuites.TLS12);
    return all;
  }
}
