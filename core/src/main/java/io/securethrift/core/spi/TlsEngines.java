package io.securethrift.core.spi;

import io.securethrift.core.identity.PeerIdentity;
import java.io.IOException;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLEngine;

/**
 * A TLS stream layer's policy for servers that run TLS themselves over an {@link SSLEngine} instead of a blocking
 * socket (securethrift's netty-server). The engines come from the same reloading context and carry the same
 * protocols, suites and client-authentication setting as the layer's sockets, and the identity is built by the same
 * rules (principal mapping, resumption), so both servers describe a peer identically.
 */
public interface TlsEngines {
  /**
   * What the layer learns while one connection's handshake runs (whether a peer certificate was verified, which one
   * was refused). The engine verifies certificates on the thread that feeds it received bytes, so the server calls
   * {@link #beforeStep()} and {@link #afterStep()} around each such call, on that thread, until the handshake ends.
   */
  interface HandshakeRecord {
    void beforeStep();

    void afterStep();
  }

  /** A new server-mode engine for a connection from {@code remote}, from the current (possibly reloaded) context. */
  SSLEngine serverEngine(InetSocketAddress remote);

  /** A record for one connection's handshake. */
  HandshakeRecord record();

  /**
   * What the completed handshake of {@code engine} established about the peer at {@code remote}. Called once, when the
   * handshake has completed; it also closes the engine to renegotiation, as the blocking server's sockets are.
   */
  PeerIdentity identify(SSLEngine engine, InetSocketAddress remote, HandshakeRecord record);

  /** The explanation a blocking server gives for a failed handshake: which setting to check, whose certificate. */
  IOException explain(Throwable failure, String peer, HandshakeRecord record);
}
