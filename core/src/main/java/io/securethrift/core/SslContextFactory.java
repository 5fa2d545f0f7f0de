package io.securethrift.core;

import io.securethrift.core.spi.LayerProvider.Role;
import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Makes the TLS context and connection parameters for one side of a configuration: the pluggable seam in the spirit
 * of Kafka's {@code SslEngineFactory}. An application that needs key material from elsewhere (a vault, an HSM) or an
 * engine of its own implements this instead of adding flags, and sets it on the configuration it belongs to with
 * {@link SecurityConfig.Builder#sslContextFactory}; other configurations in the same JVM keep theirs. Without one the
 * TLS module's {@code io.securethrift.tls.StandardSslContextFactory} is used (files, JDK PKIX managers, the
 * configured engine); an implementation may delegate to it.
 *
 * <p>The TLS layer calls {@link #createContext} once, and again whenever the key or trust files change (see
 * {@link TlsSettings#reloadInterval()}); it calls {@link #parameters} for every context it creates and applies the
 * result to every connection. Implementations must be thread-safe.
 */
public interface SslContextFactory {
  /**
   * A new, initialised context holding the current key and trust material.
   *
   * @throws IOException when a store cannot be read; the message names the file
   * @throws GeneralSecurityException when the material is unusable; the message names the file and the cause
   */
  SSLContext createContext(TlsSettings settings, Role role) throws IOException, GeneralSecurityException;

  /**
   * The protocols, cipher suites, client authentication and endpoint identification for connections of
   * {@code context}. Invalid settings raise a {@link ConfigException} naming the key.
   */
  SSLParameters parameters(SSLContext context, TlsSettings settings, Role role);
}
