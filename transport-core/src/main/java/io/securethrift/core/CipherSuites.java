package io.securethrift.core;

import java.util.List;

/**
 * The one home of securethrift's cipher-suite rule: a suite must encrypt with an AEAD and agree its keys with forward
 * secrecy. The TLS layer enables only such suites by default, and {@link SecurityConfig} refuses a configured suite
 * that breaks the rule unless {@link ConfigProperty#TLS_ALLOW_WEAK_CIPHER_SUITES} is set. Both engines name suites by
 * their IANA names, so the rule is read from the name.
 */
public final class CipherSuites {
  /**
   * The TLS 1.3 suites, all AEAD with forward secrecy. Listed one by one rather than matched by prefix, so an engine's
   * extra TLS 1.3 names (none today) are not enabled blindly.
   */
  public static final List<String> TLS13 = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
      "TLS_CHACHA20_POLY1305_SHA256");

  /** The rule in words, for messages. */
  public static final String RULE = "the TLS 1.3 suites and TLS 1.2 ECDHE or DHE suites with AES-GCM or"
      + " ChaCha20-Poly1305";

  private CipherSuites() {}

  /** Whether {@code suite} exists only in TLS 1.3. */
  public static boolean isTls13(String suite) {
    return TLS13.contains(suite);
  }

  /** Whether {@code suite} follows the rule: a TLS 1.3 suite, or a TLS 1.2 ECDHE/DHE suite with AES-GCM or ChaCha20. */
  public static boolean isAeadWithForwardSecrecy(String suite) {
    if (isTls13(suite)) {
      return true;
    }
    boolean forwardSecret = suite.startsWith("TLS_ECDHE_") || suite.startsWith("TLS_DHE_");
    return forwardSecret && (suite.contains("_GCM_") || suite.contains("_CHACHA20_POLY1305_"));
  }
}
