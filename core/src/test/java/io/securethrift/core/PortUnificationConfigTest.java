package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code securethrift.server.port.unification}: off by default, taken with the modes whose connections start with a
 * TLS handshake, and refused, naming the setting to change, wherever a first byte could not tell plaintext apart.
 */
class PortUnificationConfigTest {
  private static final String KEY = "securethrift.server.port.unification";

  @Test
  void offByDefault() {
    assertFalse(SecurityConfig.builder().build().server().portUnification());
    assertEquals("false", SecurityConfig.builder().build().toProperties().get(KEY));
  }

  @ParameterizedTest
  @ValueSource(strings = {"tls", "sasl-over-tls"})
  void takenWithTls(String mode) {
    SecurityConfig config = SecurityConfig.fromProperties(Map.of(KEY, "true", "securethrift.mode", mode));
    assertTrue(config.server().portUnification());
    assertEquals("true", config.toProperties().get(KEY));
    assertTrue(config.toBuilder().build().server().portUnification());
  }

  @Test
  void refusedWithoutTls() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "true", "securethrift.mode", "none")));
    assertEquals(KEY, e.key());
    assertTrue(e.getMessage().contains("needs a mode with TLS") && e.getMessage().contains("serves plaintext already"),
        e.getMessage());
  }

  /** A Thrift SASL START begins with byte 1, as does a plaintext frame of 16M or more. */
  @Test
  void refusedWithSaslOnTcp() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "true", "securethrift.mode", "sasl")));
    assertEquals(KEY, e.key());
    assertTrue(e.getMessage().contains("cannot be told apart") && e.getMessage().contains("sasl-over-tls"),
        e.getMessage());
  }

  /** A frame of 352M (0x16000000) or more has a length whose first byte is a TLS handshake's. */
  @Test
  void refusedWithFramesWhoseLengthCouldStartLikeTls() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(KEY, "true",
        "securethrift.mode", "tls", "securethrift.limit.max.frame.size", "352M")));
    assertEquals("securethrift.limit.max.frame.size", e.key());
    assertTrue(e.getMessage().contains("0x16") && e.getMessage().contains(KEY), e.getMessage());
    assertTrue(SecurityConfig.fromProperties(Map.of(KEY, "true", "securethrift.mode", "tls",
        "securethrift.limit.max.frame.size", "351M")).server().portUnification());
  }
}
