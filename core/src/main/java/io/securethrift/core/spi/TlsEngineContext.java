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
}
