package io.securethrift.accumulo.conscrypt;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.tls.internal.ConscryptProvider;
import org.junit.jupiter.api.Test;

/** The drop-in hands out the JVM's one Conscrypt provider, the one securethrift's own TLS engine runs on. */
class SharedConscryptProviderTest {
  @Test
  void theDropInAndTheConscryptEngineShareOneProvider() {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.CONSCRYPT).build();
    assertSame(ConscryptProvider.instance(), ConscryptFirstProvider.Delegate.PROVIDER);
    assertSame(ConscryptFirstProvider.Delegate.PROVIDER, config.tls().engineProvider().provider().orElseThrow());
  }
}
