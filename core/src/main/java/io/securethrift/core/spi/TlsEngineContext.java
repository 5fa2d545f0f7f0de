package io.securethrift.core.spi;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * One role's source of {@link SSLEngine}s, made by an engine that is no JCA provider
 * ({@link TlsEngineProvider#newContext}) from the key and trust managers securethrift built: the part of an
 * {@code SSLContext} that securethrift's transports use. The TLS module applies its protocols, suites, client
 * authentication and endpoint identification to each engine ({@link SSLEngine#setSSLParameters}), as for a JCA
 * context. Thread-safe; shared by every connection of a configuration and role until its files change.
 */
public interface TlsEngineContext {
  /**
   * A new engine in this context's role, for a connection with {@code peerHost} and {@code peerPort}: a client's
   * session cache and host-name check use them.
   */
  SSLEngine newEngine(String peerHost, int peerPort);

  /** The protocols and cipher suites (by their IANA names, as JSSE spells them) its engines support. */
  SSLParameters supportedParameters();

  /** What its engines enable when told nothing. */
  SSLParameters defaultParameters();

  /**
   * Whether its server engines staple the OCSP response they are handed ({@link #staple}): the TLS module then fetches
   * the response for the server's own certificate when {@code securethrift.tls.revocation.ocsp.stapling} asks. False
   * (the default) for engines that fetch it themselves (the JDK's) or cannot staple.
   */
  default boolean staplesHandedResponses() {
    return false;
  }

  /**
   * Hands a server engine of this context, before its handshake, the DER OCSP response for its own certificate, sent
   * to a client that asks for it (TLS {@code status_request}).
   *
   * @throws UnsupportedOperationException unless {@link #staplesHandedResponses()}
   */
  default void staple(SSLEngine engine, byte[] response) {
    throw new UnsupportedOperationException("these engines staple no OCSP response they are handed");
  }
}
