package io.securethrift.core;

/**
 * Strength of the cipher a DIGEST-MD5 {@code auth-conf} connection encrypts with, in the tokens of
 * {@code javax.security.sasl.strength}, as securethrift rates the ciphers: {@code high} (3des), {@code medium} (des,
 * rc4, rc4-56), {@code low} (rc4-40). The JDK rates 128-bit rc4 {@code high}; RC4 is broken at every key length (RFC
 * 7465). Declared weakest first, so {@link #compareTo} orders them.
 */
public enum CipherStrength {
  LOW("low"),
  MEDIUM("medium"),
  HIGH("high");

  private final String token;

  CipherStrength(String token) {
    this.token = token;
  }

  /** The token as {@code javax.security.sasl.strength} spells it. */
  public String token() {
    return token;
  }

  /** Whether this strength is {@code minimum} or stronger. */
  public boolean atLeast(CipherStrength minimum) {
    return compareTo(minimum) >= 0;
  }

  public static CipherStrength parse(String key, String text) {
    return Tokens.parse(key, text, values(), CipherStrength::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
