package io.securethrift.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * TLS part of a {@link SecurityConfig}. Immutable; built and validated by {@link SecurityConfig.Builder}.
 *
 * @param engine which TLS implementation to use
 * @param protocols enabled protocol versions, most preferred first
 * @param cipherSuites enabled suites; empty means the engine's AEAD suites with forward secrecy
 * @param allowWeakCipherSuites whether {@code cipherSuites} was allowed to name suites outside {@link CipherSuites}'
 *     rule
 * @param keyStore this side's certificate and key (required on servers, enables client authentication on clients)
 * @param trustStore the certificates this side trusts; empty means the JVM's default trust store
 * @param clientAuth whether a server asks for client certificates
 * @param hostnameVerification whether a client checks the server certificate's SAN against the host it dialled
 * @param principalMapping how a server names a client from its certificate
 * @param reloadInterval how often key and trust files are checked for changes; zero disables reloading
 * @param sslContextFactory this configuration's TLS context factory; empty means the TLS module's standard one
 */
public record TlsSettings(
    TlsEngine engine,
    List<String> protocols,
    List<String> cipherSuites,
    boolean allowWeakCipherSuites,
    Optional<StoreLocation> keyStore,
    Optional<StoreLocation> trustStore,
    ClientAuth clientAuth,
    boolean hostnameVerification,
    PrincipalMapping principalMapping,
    Duration reloadInterval,
    Optional<SslContextFactory> sslContextFactory) {

  public TlsSettings {
    protocols = List.copyOf(protocols);
    cipherSuites = List.copyOf(cipherSuites);
  }
}
