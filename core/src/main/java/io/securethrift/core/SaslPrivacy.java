package io.securethrift.core;

/**
 * How a SASL {@code auth-conf} connection encrypts its data phase ({@code securethrift.sasl.privacy}). {@code gss}
 * wraps every frame with the mechanism (GSSAPI or DIGEST-MD5), as every Thrift SASL peer does. {@code aes-gcm}
 * encrypts with AES-GCM records under keys agreed inside GSSAPI's security layer exchange, or for DIGEST-MD5 in a key
 * exchange right after negotiation, between securethrift peers only; {@code aes-gcm-preferred} does so when the peer
 * speaks it and otherwise uses {@code gss}.
 * docs/sasl-privacy.md describes the protocol.
 */
public enum SaslPrivacy {
  GSS("gss"),
  AES_GCM("aes-gcm"),
  AES_GCM_PREFERRED("aes-gcm-preferred");

  private final String token;

  SaslPrivacy(String token) {
    this.token = token;
  }

  /** The token as {@code securethrift.sasl.privacy} spells it. */
  public String token() {
    return token;
  }

  /** Whether this side offers (client) or accepts (server) the AES-GCM key exchange. */
  public boolean speaksAesGcm() {
    return this != GSS;
  }

  public static SaslPrivacy parse(String key, String text) {
    return Tokens.parse(key, text, values(), SaslPrivacy::token);
  }

  @Override
  public String toString() {
    return token;
  }
}
