package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.identity.PeerIdentity;

/** What a completed negotiation established, on either side. */
final class Negotiated {
  private final SaslEndpoint endpoint;
  private final String mechanism;
  private final QualityOfProtection qop;
  private final DigestCiphers cipher;

  /** @param cipher the DIGEST-MD5 {@code auth-conf} cipher; null for other mechanisms and levels */
  Negotiated(SaslEndpoint endpoint, String mechanism, QualityOfProtection qop, DigestCiphers cipher) {
    this.endpoint = endpoint;
    this.mechanism = mechanism;
    this.qop = qop;
    this.cipher = cipher;
  }

  SaslEndpoint endpoint() {
    return endpoint;
  }

  String mechanism() {
    return mechanism;
  }

  QualityOfProtection qop() {
    return qop;
  }

  /** Adds mechanism, level and cipher to the identity of the connection. */
  PeerIdentity.Builder describe(PeerIdentity.Builder identity) {
    identity.sasl(mechanism, qop);
    if (cipher != null) {
      identity.saslCipher(cipher.cipher(), cipher.strength());
    }
    return identity;
  }
}
