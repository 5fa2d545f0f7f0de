package io.securethrift.core;

/**
 * Whether peers' certificates are checked with their CA's OCSP responder ({@code securethrift.tls.revocation.ocsp}),
 * and what happens when the answer cannot be had.
 */
public enum OcspMode {
  /** No OCSP (CRL files, when configured, are still checked). */
  OFF("off"),
  /**
   * Asked, and a "revoked" answer refuses the peer; a responder that cannot be reached or gives no answer lets the
   * handshake through, with a warning.
   */
  SOFT_FAIL("soft-fail"),
  /** Asked, and a certificate whose status cannot be determined is refused as a revoked one is. */
  HARD_FAIL("hard-fail");

  private final String token;

  OcspMode(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static OcspMode parse(String key, String text) {
    return Tokens.parse(key, text, values(), OcspMode::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
