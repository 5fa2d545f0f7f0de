package io.securethrift.netty;

import io.securethrift.core.identity.PeerIdentity;

/** User events by which {@link HandshakeGuard} tells the handlers after it how far the connection's handshakes got. */
final class Handshakes {
  private Handshakes() {}

  /** The stream layer (TLS, or plain TCP) is done: SASL negotiates next, over a stream of this identity. */
  static final class StreamSecured {
    final PeerIdentity identity;

    StreamSecured(PeerIdentity identity) {
      this.identity = identity;
    }
  }

  /** Every handshake is done: calls are served, as this peer's. */
  static final class Authenticated {
    final PeerIdentity identity;

    Authenticated(PeerIdentity identity) {
      this.identity = identity;
    }
  }
}
