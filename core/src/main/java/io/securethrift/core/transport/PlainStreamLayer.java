package io.securethrift.core;

import io.securethrift.core.spi.SecureStream;
import io.securethrift.core.spi.StreamLayer;
import java.net.InetSocketAddress;
import java.net.Socket;

/** The stream part of modes without TLS: the TCP socket as it is. */
final class PlainStreamLayer implements StreamLayer {
  private final SecurityMode mode;

  PlainStreamLayer(SecurityMode mode) {
    this.mode = mode;
  }

  @Override
  public SecureStream open(Socket socket, String host) {
    return new SecureStream(socket,
        PeerIdentity.builder(mode, (InetSocketAddress) socket.getRemoteSocketAddress()).build());
  }
}
