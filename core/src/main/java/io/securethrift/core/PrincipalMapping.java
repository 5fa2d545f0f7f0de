package io.securethrift.core;

import io.securethrift.core.identity.PeerIdentity;

/**
 * How a TLS server names a client from its certificate. Accumulo never maps certificates to users; securethrift
 * exposes the mapped name as {@link PeerIdentity#principal()} so a service can authorize on it.
 */
public enum PrincipalMapping {
  /** The whole subject distinguished name, RFC 2253 form. */
  SUBJECT("subject"),
  /** The subject's common name. */
  CN("cn"),
  /** The first DNS subject alternative name. */
  SAN_DNS("san-dns"),
  /** The first e-mail (rfc822Name) subject alternative name. */
  SAN_EMAIL("san-email"),
  /** The first URI subject alternative name (for example a SPIFFE id). */
  SAN_URI("san-uri");

  private final String token;

  PrincipalMapping(String token) {
    this.token = token;
  }

  public String token() {
    return token;
  }

  public static PrincipalMapping parse(String key, String text) {
    return Tokens.parse(key, text, values(), PrincipalMapping::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
