package io.securethrift.core;

import java.util.List;

/**
 * The one home of securethrift's cipher-suite rule, an explicit list rather than a match on parts of a name: the TLS
 * 1.3 suites, and the TLS 1.2 suites that agree keys with ECDHE (forward secrecy), authenticate the server with an
 * ECDSA or RSA certificate, and encrypt with AES-GCM or ChaCha20-Poly1305 (AEAD). Everything else is outside it: PSK
 * and SRP suites (no certificate; {@code TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256}, which Conscrypt offers, among
 * them), anonymous, NULL, export, RC4 and CBC suites, RSA and static ECDH key exchange, DHE (finite-field groups a
 * peer chooses), and AEAD ciphers other than these two. The TLS layer enables only listed suites by default, and
 * {@link SecurityConfig} refuses a configured suite outside the list unless
 * {@link ConfigProperty#TLS_ALLOW_WEAK_CIPHER_SUITES} is set. Both engines name suites by their IANA names.
 */
public final class CipherSuites {
  /**
   * The TLS 1.3 suites, all AEAD with forward secrecy. Listed one by one rather than matched by prefix, so an engine's
   * extra TLS 1.3 names (none today) are not enabled blindly.
   */
  public static final List<String> TLS13 = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
      "TLS_CHACHA20_POLY1305_SHA256");

  /**
   * The TLS 1.2 suites the rule accepts: ECDHE key exchange, ECDSA or RSA certificates, AES-GCM or ChaCha20-Poly1305,
   * in the order a configuration that names them all offers them.
   */
  public static final List<String> TLS12 = List.of(
      "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  /** The rule in words, for messages. */
  public static final String RULE = "the TLS 1.3 suites and TLS 1.2 ECDHE suites with ECDSA or RSA certificates and"
      + " AES-GCM or ChaCha20-Poly1305";

  /**
   * The suites of the rule that FIPS 140-3 approves (NIST SP 800-52 rev. 2): AES-GCM only, with the TLS 1.3 suites
   * and, for TLS 1.2, ECDHE key exchange. ChaCha20-Poly1305 is not a FIPS-approved cipher. The only suites
   * {@code securethrift.fips=true} enables by default or lets a configuration name.
   */
  public static final List<String> FIPS = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
      "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");

  /** {@link #FIPS} in words, for messages. */
  public static final String FIPS_RULE = "the TLS 1.3 AES-GCM suites and TLS 1.2 ECDHE suites with AES-GCM";

  private CipherSuites() {}

  /** Whether {@code suite} is one of {@link #FIPS}. */
  public static boolean isFipsApproved(String suite) {
    return FIPS.contains(suite);
  }

  /** Whether {@code suite} exists only in TLS 1.3. */
  public static boolean isTls13(String suite) {
    return TLS13.contains(suite);
  }

  /**
   * Whether {@code suite} follows the rule: one of {@link #TLS13} or {@link #TLS12}. (The name predates the condition
   * on authentication: a PSK suite with AEAD and ECDHE is refused too.)
   */
  public static boolean isAeadWithForwardSecrecy(String suite) {
    return TLS13.contains(suite) || TLS12.contains(suite);
  }
}
