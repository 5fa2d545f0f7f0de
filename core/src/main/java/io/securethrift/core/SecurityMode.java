package io.securethrift.core;

/**
 * How a connection is secured. The stream part (plain TCP or TLS) and the message part (Thrift framing or the Thrift
 * SASL protocol) are chosen independently by the mode, as Accumulo does: {@code none} and {@code tls} carry framed
 * messages, {@code sasl} runs the SASL protocol directly on TCP, and {@code sasl-over-tls} (which Accumulo refuses)
 * lets Kerberos authenticate while TLS protects the bytes.
 */
public enum SecurityMode {
  NONE("none", false, false),
  TLS("tls", true, false),
  SASL("sasl", false, true),
  SASL_OVER_TLS("sasl-over-tls", true, true);

  private final String token;
  private final boolean tls;
  private final boolean sasl;

  SecurityMode(String token, boolean tls, boolean sasl) {
    this.token = token;
    this.tls = tls;
    this.sasl = sasl;
  }

  /** The exact name used in configuration files. */
  public String token() {
    return token;
  }

  public boolean usesTls() {
    return tls;
  }

  public boolean usesSasl() {
    return sasl;
  }

  /** Parses {@code none}, {@code tls}, {@code sasl} or {@code sasl-over-tls}. */
  public static SecurityMode parse(String key, String text) {
    return Tokens.parse(key, text, values(), SecurityMode::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
