package io.securethrift.core;

/** Whether a TLS server asks clients for a certificate. */
public enum ClientAuth {
  NONE("none"),
  /** Asked for, but a client without one is still accepted. */
  WANT("want"),
  /** Required: a client without a trusted certificate fails the handshake. */
  NEED("need");

  private final String token;

  ClientAuth(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static ClientAuth parse(String key, String text) {
    return Tokens.parse(key, text, values(), ClientAuth::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
