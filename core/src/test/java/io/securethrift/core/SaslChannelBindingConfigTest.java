package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code securethrift.sasl.channel.binding}: its default, its values, and the rule tying require to TLS. */
class SaslChannelBindingConfigTest {
  private static final String KEY = "securethrift.sasl.channel.binding";

  @Test
  void defaultsToPreferAndReadsEveryValueBack() {
    assertEquals(SaslChannelBinding.PREFER, SecurityConfig.builder().build().sasl().channelBinding());
    for (SaslChannelBinding binding : SaslChannelBinding.values()) {
      SecurityConfig config = SecurityConfig.fromProperties(Map.of(KEY, binding.token(),
          "securethrift.mode", "sasl-over-tls"));
      assertEquals(binding, config.sasl().channelBinding());
      assertEquals(binding.token(), config.toProperties().get(KEY));
      assertEquals(binding, config.toBuilder().build().sasl().channelBinding());
    }
  }

  @Test
  void anUnknownValueNamesTheKeyAndTheChoices() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "always")));
    assertEquals(KEY, e.key());
    assertTrue(e.getMessage().contains("'always'") && e.getMessage().contains("off, prefer, require"),
        e.getMessage());
  }

  /** Without TLS there is nothing to bind to, so require could only refuse every Kerberos client. */
  @Test
  void requireNeedsTls() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "require", "securethrift.mode", "sasl")));
    assertEquals(KEY + ": 'require' binds Kerberos to the TLS connection under it, but securethrift.mode is sasl,"
        + " which has no TLS; set the mode to sasl-over-tls, or set " + KEY + "=prefer", e.getMessage());
    assertEquals(SaslChannelBinding.PREFER, SecurityConfig.fromProperties(Map.of("securethrift.mode", "sasl"))
        .sasl().channelBinding());
  }
}
