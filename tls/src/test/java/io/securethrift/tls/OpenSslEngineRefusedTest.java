package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.spi.LayerProvider.Role;
import org.junit.jupiter.api.Test;

/**
 * Engine openssl (Netty's netty-tcnative) shares the engine list with the JCA engines but is no JCA provider: a Thrift
 * transport given it names the setting and says where it applies, instead of falling back to another engine.
 */
class OpenSslEngineRefusedTest {
  @Test
  void thriftContextOnOpensslNamesTheSetting() {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.OPENSSL).build();
    ConfigException e = assertThrows(ConfigException.class,
        () -> StandardSslContextFactory.INSTANCE.createContext(config.tls(), Role.CLIENT));
    assertEquals("securethrift.tls.engine", e.key());
    assertTrue(e.getMessage().contains("ZooKeeper client-port"), e.getMessage());
  }
}
