package io.securethrift.core;

/** How the audit log ({@code securethrift.audit}) writes a line: key=value text, or one JSON object. */
public enum AuditFormat {
  /** {@code event=auth outcome=success peer=/10.0.0.7:51234 ...}: readable, and split on spaces and {@code =}. */
  TEXT("text"),
  /** {@code {"event":"auth","outcome":"success",...}}: one object per line, for log shippers. */
  JSON("json");

  private final String token;

  AuditFormat(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static AuditFormat parse(String key, String text) {
    return Tokens.parse(key, text, values(), AuditFormat::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
