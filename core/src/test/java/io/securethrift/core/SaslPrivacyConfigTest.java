package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import java.net.InetSocketAddress;
import java.security.Provider;
import java.security.Security;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code securethrift.sasl.privacy}: its values, the rule tying it to auth-conf, and how identities show it. */
class SaslPrivacyConfigTest {
  private static final String KEY = "securethrift.sasl.privacy";

  @Test
  void defaultsToGssAndReadsEveryValueBack() {
    assertEquals(SaslPrivacy.GSS, SecurityConfig.builder().build().sasl().privacy());
    for (SaslPrivacy privacy : SaslPrivacy.values()) {
      SecurityConfig config = SecurityConfig.fromProperties(Map.of(KEY, privacy.token()));
      assertEquals(privacy, config.sasl().privacy());
      assertEquals(privacy.token(), config.toProperties().get(KEY));
      assertEquals(privacy, config.toBuilder().build().sasl().privacy());
    }
  }

  @Test
  void aesGcmNeedsAuthConfAmongTheLevels() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "aes-gcm", "securethrift.sasl.qop", "auth-int,auth")));
    assertEquals(KEY + ": 'aes-gcm' replaces the encryption of auth-conf, but securethrift.sasl.qop is auth-int,auth;"
        + " add auth-conf to it or set " + KEY + "=gss", e.getMessage());
    assertEquals(SaslPrivacy.AES_GCM_PREFERRED, SecurityConfig.fromProperties(Map.of(KEY, "aes-gcm-preferred",
        "securethrift.sasl.qop", "auth-conf,auth-int")).sasl().privacy());
  }

  /** AES-GCM keys travel under the DIGEST-MD5 cipher, so AES-GCM privacy takes nothing below 3DES. */
  @Test
  void aesGcmNeedsTheHighDigestMinimum() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(KEY,
        "aes-gcm-preferred", "securethrift.sasl.digest.min.strength", "medium")));
    assertEquals("securethrift.sasl.digest.min.strength", e.key());
    assertEquals("securethrift.sasl.digest.min.strength: 'medium' admits DIGEST-MD5 ciphers weaker than 3DES, and "
        + KEY + "=aes-gcm-preferred exchanges its AES-GCM keys under the DIGEST-MD5 cipher, so a weak one would"
        + " expose them; keep high, or set " + KEY + "=gss", e.getMessage());
    assertEquals(CipherStrength.MEDIUM, SecurityConfig.fromProperties(Map.of(KEY, "gss",
        "securethrift.sasl.digest.min.strength", "medium")).sasl().digestMinStrength());
  }

  /** The AES-GCM provider is code on the builder: kept by toBuilder, absent from properties, checked at build. */
  @Test
  void theProviderIsPerConfigurationAndMustHaveAesGcm() {
    assertEquals(Optional.empty(), SecurityConfig.builder().build().sasl().privacyProvider());
    Provider sunJce = Security.getProvider("SunJCE");
    SecurityConfig config = SecurityConfig.builder().saslPrivacy(SaslPrivacy.AES_GCM).saslPrivacyProvider(sunJce)
        .build();
    assertEquals(Optional.of(sunJce), config.sasl().privacyProvider());
    assertEquals(Optional.of(sunJce), config.toBuilder().build().sasl().privacyProvider());
    assertEquals(Optional.empty(), SecurityConfig.fromProperties(config.toProperties()).sasl().privacyProvider());
    Provider sun = Security.getProvider("SUN");
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.builder().saslPrivacyProvider(sun).build());
    assertEquals(true, e.getMessage().startsWith(KEY + ": AES-GCM records need the cipher AES/GCM/NoPadding, which"
        + " the provider SUN given to saslPrivacyProvider does not offer"), e.getMessage());
  }

  @Test
  void anUnknownValueIsRefusedNamingTheChoices() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of(KEY, "aes")));
    assertEquals(true, e.getMessage().startsWith(KEY + ": "), e.getMessage());
    assertEquals(true, e.getMessage().contains("aes-gcm-preferred"), e.getMessage());
  }

  @Test
  void identitiesShowThePrivacyAfterTheLevel() {
    PeerIdentity identity = TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress("127.0.0.1", 1))
        .principal("alice@EXAMPLE.COM").sasl("GSSAPI", QualityOfProtection.AUTH_CONF).privacy(SaslPrivacy.AES_GCM)
        .build();
    assertEquals(Optional.of(SaslPrivacy.AES_GCM), identity.privacy());
    assertEquals("PeerIdentity[sasl /127.0.0.1:1 principal=alice@EXAMPLE.COM GSSAPI auth-conf/aes-gcm]",
        identity.toString());
  }
}
