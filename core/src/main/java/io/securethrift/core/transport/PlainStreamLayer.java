package io.securethrift.core.transport;

import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.SecureStream;
import io.securethrift.core.spi.StreamLayer;
import java.net.InetSocketAddress;
import java.net.Socket;

/** The stream part of modes without TLS: the TCP socket as it is. */
final class PlainStreamLayer implements StreamLayer {
  private final SecurityMode mode;
  private final PeerIdentity.Issuer issuer;

  PlainStreamLayer(SecurityMode mode, PeerIdentity.Issuer issuer) {
    this.mode = mode;
    this.issuer = issuer;
  }

  @Override
  public SecureStream open(Socket socket, String host) {
    return new SecureStream(socket,
        issuer.builder(mode, (InetSocketAddress) socket.getRemoteSocketAddress()).build());
  }
}
