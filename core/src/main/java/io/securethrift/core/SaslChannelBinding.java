package io.securethrift.core;

/**
 * Whether a Kerberos (GSSAPI) negotiation in mode {@code sasl-over-tls} is bound to the TLS connection under it
 * ({@code securethrift.sasl.channel.binding}), so that a man in the middle who terminates a client's TLS cannot relay
 * the client's Kerberos authentication into a TLS connection of its own to the real server. The binding is the TLS
 * server's certificate (RFC 5929 {@code tls-server-end-point}), carried inside GSSAPI's integrity-protected security
 * layer messages; docs/tls.md describes it. A binding that differs from this side's is refused at every setting but
 * {@code off}.
 */
public enum SaslChannelBinding {
  /** Neither sends nor checks a binding: the negotiation is as before channel binding existed. */
  OFF("off"),
  /** Binds with a peer that can, and still accepts a peer that cannot (libthrift, older securethrift). */
  PREFER("prefer"),
  /** Binds, and refuses a peer that does not. */
  REQUIRE("require");

  private final String token;

  SaslChannelBinding(String token) {
    this.token = token;
  }

  /** The token as {@code securethrift.sasl.channel.binding} spells it. */
  public String token() {
    return token;
  }

  public static SaslChannelBinding parse(String key, String text) {
    return Tokens.parse(key, text, values(), SaslChannelBinding::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
