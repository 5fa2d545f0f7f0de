package io.securethrift.core.spi;

import io.securethrift.core.PeerIdentity;
import java.net.Socket;

/**
 * A byte stream after its stream layer's handshake: the socket to read and write (a TLS socket layered on the TCP
 * one, or the TCP socket itself) and what the handshake established about the peer.
 */
public record SecureStream(Socket socket, PeerIdentity identity) {}
