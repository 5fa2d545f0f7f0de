package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code securethrift.fips}: off by default, and each refusal names the setting, the value and why. */
class FipsProfileTest {
  private static final String FIPS = "securethrift.fips";

  @Test
  void offByDefaultAndReadBack() {
    assertFalse(SecurityConfig.builder().build().fips());
    SecurityConfig on = SecurityConfig.fromProperties(Map.of(FIPS, "true", "securethrift.mode", "tls"));
    assertTrue(on.fips());
    assertTrue(on.tls().fips());
    assertEquals("true", on.toProperties().get(FIPS));
    assertTrue(on.toBuilder().build().fips());
    assertTrue(on.toString().contains(FIPS + "=true"), on.toString());
  }

  @Test
  void approvedSuitesAreAccepted() {
    SecurityConfig config = SecurityConfig.builder().fips(true).tlsCipherSuites(CipherSuites.FIPS).build();
    assertEquals(CipherSuites.FIPS, config.tls().cipherSuites());
    assertTrue(CipherSuites.TLS13.containsAll(CipherSuites.FIPS.subList(0, 2)));
    assertTrue(CipherSuites.TLS12.containsAll(CipherSuites.FIPS.subList(2, 6)));
  }

  @Test
  void chaChaIsRefusedNamingTheSuiteAndWhy() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(FIPS, "true",
        "securethrift.tls.cipher.suites", "TLS_AES_128_GCM_SHA256,TLS_CHACHA20_POLY1305_SHA256")));
    assertEquals("securethrift.tls.cipher.suites", e.key());
    assertEquals("securethrift.tls.cipher.suites: TLS_CHACHA20_POLY1305_SHA256 (ChaCha20-Poly1305 is not a"
        + " FIPS-approved cipher): securethrift.fips=true admits only the TLS 1.3 AES-GCM suites and TLS 1.2 ECDHE"
        + " suites with AES-GCM; remove it, or set securethrift.fips=false", e.getMessage());
  }

  @Test
  void weakSuitesAreRefusedEachWithItsReason() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.builder().fips(true)
        .tlsCipherSuites(List.of("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
            "TLS_RSA_WITH_AES_128_GCM_SHA256"))
        .build());
    assertEquals("securethrift.tls.cipher.suites: TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA (CBC suites are outside the"
        + " profile, which admits AEAD (AES-GCM) only), TLS_RSA_WITH_3DES_EDE_CBC_SHA (3DES, DES and RC4 are not"
        + " approved), TLS_RSA_WITH_AES_128_GCM_SHA256 (its key exchange is not ECDHE): securethrift.fips=true admits"
        + " only the TLS 1.3 AES-GCM suites and TLS 1.2 ECDHE suites with AES-GCM; remove them, or set"
        + " securethrift.fips=false", e.getMessage());
  }

  @Test
  void allowingWeakSuitesIsRefused() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(FIPS, "true",
        "securethrift.tls.allow.weak.cipher.suites", "true")));
    assertEquals("securethrift.tls.allow.weak.cipher.suites: true lets the suite list name suites outside FIPS"
        + " approval, which securethrift.fips=true refuses; set it to false", e.getMessage());
  }

  @Test
  void digestMd5IsRefused() {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(FIPS, "true",
        "securethrift.mode", "sasl", "securethrift.sasl.mechanism", "DIGEST-MD5")));
    assertEquals("securethrift.sasl.mechanism: DIGEST-MD5 is refused by securethrift.fips=true: DIGEST-MD5, which"
        + " FIPS 140-3 does not approve (MD5 digests, and 3DES, DES or RC4 for auth-conf); use GSSAPI (Kerberos with"
        + " AES enctypes), or set securethrift.fips=false", e.getMessage());
  }

  /** A server holding token secrets accepts DIGEST-MD5 whatever its configured mechanism. */
  @Test
  void delegationTokensAndTheirSecretsAreRefused() {
    ConfigException token = assertThrows(ConfigException.class, () -> SecurityConfig.builder().fips(true)
        .delegationToken(new DelegationToken(new byte[] {1}, new byte[] {2})).build());
    assertEquals("securethrift.sasl.mechanism", token.key());
    assertTrue(token.getMessage().startsWith("securethrift.sasl.mechanism: a delegation token is set"
        + " (SecurityConfig.Builder.delegationToken), and delegation tokens authenticate with DIGEST-MD5, which FIPS"
        + " 140-3 does not approve"), token.getMessage());
    ConfigException secrets = assertThrows(ConfigException.class, () -> SecurityConfig.builder().fips(true)
        .delegationTokenSecrets(identifier -> java.util.Optional.empty()).build());
    assertTrue(secrets.getMessage().contains("a delegation token's secrets is set"
        + " (SecurityConfig.Builder.delegationTokenSecrets)"), secrets.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"aes-gcm", "aes-gcm-preferred"})
  void aesGcmPrivacyIsRefusedForItsX25519(String privacy) {
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfig.fromProperties(Map.of(FIPS, "true",
        "securethrift.sasl.privacy", privacy)));
    assertEquals("securethrift.sasl.privacy: '" + privacy + "' agrees its AES-GCM keys with X25519, which FIPS 140-3"
        + " does not approve for key agreement (SP 800-56A rev. 3 names the NIST curves P-256, P-384 and P-521);"
        + " securethrift.fips=true refuses it. Set it to gss: auth-conf is then Kerberos's own wrap, AES when"
        + " krb5.conf permits only AES enctypes", e.getMessage());
  }

  /** Without the profile the same settings stay as they were. */
  @Test
  void withoutTheProfileNothingChanges() {
    SecurityConfig config = SecurityConfig.builder().tlsCipherSuites(List.of("TLS_CHACHA20_POLY1305_SHA256"))
        .saslMechanism(SaslMechanism.DIGEST_MD5).saslPrivacy(SaslPrivacy.AES_GCM).build();
    assertFalse(config.fips());
    assertEquals(SaslPrivacy.AES_GCM, config.sasl().privacy());
  }
}
