package io.securethrift.core.spi;

import io.securethrift.core.identity.PeerIdentity;
import java.net.Socket;
import java.util.Objects;

/**
 * A byte stream after its stream layer's handshake: the socket to read and write (a TLS socket layered on the TCP
 * one, or the TCP socket itself) and what the handshake established about the peer. Immutable; a
 * {@link StreamLayer} creates it and securethrift reads it.
 */
public final class SecureStream {
  private final Socket socket;
  private final PeerIdentity identity;

  /**
   * Public because stream layers in other modules (the tls module's TLS layer) create it. That cannot forge a
   * peer: a {@link PeerIdentity} comes only from the {@link PeerIdentity.Issuer} securethrift hands its layers.
   *
   * @param socket the socket the connection continues on
   * @param identity what the handshake established about the peer
   */
  public SecureStream(Socket socket, PeerIdentity identity) {
    this.socket = Objects.requireNonNull(socket, "socket");
    this.identity = Objects.requireNonNull(identity, "identity");
  }

  /** The socket to read and write: a TLS socket layered on the TCP one, or the TCP socket itself. */
  public Socket socket() {
    return socket;
  }

  /** What the handshake established about the peer. */
  public PeerIdentity identity() {
    return identity;
  }
}
