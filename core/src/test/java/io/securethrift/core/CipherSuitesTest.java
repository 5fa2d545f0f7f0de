package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The suite rule is an explicit list: a name that merely contains ECDHE and an AEAD cipher is not enough. */
class CipherSuitesTest {
  @ParameterizedTest
  @ValueSource(strings = {
      // PSK: AEAD and ECDHE, but no certificate authenticates the server. Conscrypt offers the first one.
      "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_PSK_WITH_AES_128_GCM_SHA256",
      "TLS_DHE_PSK_WITH_AES_256_GCM_SHA384", "TLS_PSK_WITH_AES_128_GCM_SHA256", "TLS_PSK_WITH_CHACHA20_POLY1305_SHA256",
      // Anonymous, NULL, export, RC4, CBC.
      "TLS_ECDH_anon_WITH_AES_128_CBC_SHA", "TLS_DH_anon_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_NULL_SHA",
      "TLS_RSA_EXPORT_WITH_RC4_40_MD5", "TLS_ECDHE_RSA_WITH_RC4_128_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
      // Other key exchanges: RSA, static ECDH, DHE with either certificate.
      "TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256",
      "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_DHE_DSS_WITH_AES_256_GCM_SHA384",
      // AEAD ciphers other than AES-GCM and ChaCha20-Poly1305, and names that only look right.
      "TLS_ECDHE_ECDSA_WITH_ARIA_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CCM", "TLS_AES_128_CCM_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256_X", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_", "tls_aes_128_gcm_sha256"})
  void suitesOutsideTheRuleAreRefused(String suite) {
    assertFalse(CipherSuites.isAeadWithForwardSecrecy(suite), suite);
  }

  @Test
  void theRuleIsTheTls13SuitesAndSixEcdheSuites() {
    for (String suite : CipherSuites.TLS13) {
      assertTrue(CipherSuites.isAeadWithForwardSecrecy(suite), suite);
      assertTrue(CipherSuites.isTls13(suite), suite);
    }
    for (String kx : List.of("ECDSA", "RSA")) {
      for (String cipher : List.of("AES_128_GCM_SHA256", "AES_256_GCM_SHA384", "CHACHA20_POLY1305_SHA256")) {
        String suite = "TLS_ECDHE_" + kx + "_WITH_" + cipher;
        assertTrue(CipherSuites.isAeadWithForwardSecrecy(suite), suite);
        assertFalse(CipherSuites.isTls13(suite), suite);
      }
    }
    assertEquals(6, CipherSuites.TLS12.size());
  }

  /**
   * What the JDK offers by default and the rule accepts: every TLS 1.3 suite and every ECDHE AES-GCM and
   * ChaCha20-Poly1305 suite it has, so no default the JDK would negotiate is lost.
   */
  @Test
  void theJdksDefaultEcdheAeadSuitesAreKept() throws NoSuchAlgorithmException {
    List<String> defaults = Arrays.asList(SSLContext.getDefault().getDefaultSSLParameters().getCipherSuites());
    List<String> kept = defaults.stream().filter(CipherSuites::isAeadWithForwardSecrecy).collect(Collectors.toList());
    List<String> expected = defaults.stream()
        .filter(s -> s.matches("TLS_(AES_(128_GCM_SHA256|256_GCM_SHA384)|CHACHA20_POLY1305_SHA256)"
            + "|TLS_ECDHE_(ECDSA|RSA)_WITH_(AES_(128_GCM_SHA256|256_GCM_SHA384)|CHACHA20_POLY1305_SHA256)"))
        .collect(Collectors.toList());
    assertEquals(expected, kept);
    assertTrue(kept.containsAll(List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384")), kept.toString());
  }
}
