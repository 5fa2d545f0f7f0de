package io.securethrift.core;

import io.securethrift.core.spi.TlsEngineProvider;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The TLS part of a {@link SecurityConfig}: meaningful when {@link SecurityMode#usesTls()}. Immutable; only
 * {@link SecurityConfig.Builder#build()} creates one, after validating every value, so a layer never sees an
 * unchecked protocol, cipher suite or store.
 *
 * <p>Defaults ({@link ConfigProperty} has the keys): FIPS profile off; engine {@code auto} (resolved when built);
 * protocols TLSv1.3 and TLSv1.2; no cipher suite list (the engine's suites that {@link CipherSuites} accepts); weak
 * suites not allowed; no key store; no trust store (the JVM's default); client authentication {@code none}; hostname
 * verification on; principal mapping {@code cn}; reload interval 10s; a reloaded certificate naming another identity
 * refused; no revocation checking (no CRL files, OCSP off); no TLS context factory (the TLS module's standard one).
 */
public final class TlsSettings {
  private final boolean fips;
  private final TlsEngine engineSetting;
  private final Optional<TlsEngineProvider> suppliedEngine;
  /** Resolved when a configuration with TLS is built; null in one without, which resolves it if asked. */
  private final TlsEngineProvider engine;
  private final List<String> protocols;
  private final List<String> cipherSuites;
  private final boolean allowWeakCipherSuites;
  private final Optional<StoreLocation> keyStore;
  private final Optional<StoreLocation> trustStore;
  private final ClientAuth clientAuth;
  private final boolean hostnameVerification;
  private final PrincipalMapping principalMapping;
  private final Duration reloadInterval;
  private final IdentityChange reloadIdentityChange;
  private final List<Path> crlFiles;
  private final OcspMode ocsp;
  private final Optional<URI> ocspResponder;
  private final Duration ocspCacheMax;
  private final boolean ocspStapling;
  private final Optional<SslContextFactory> sslContextFactory;

  TlsSettings(boolean fips, TlsEngine engineSetting, Optional<TlsEngineProvider> suppliedEngine,
      TlsEngineProvider engine, List<String> protocols, List<String> cipherSuites,
      boolean allowWeakCipherSuites, Optional<StoreLocation> keyStore, Optional<StoreLocation> trustStore,
      ClientAuth clientAuth, boolean hostnameVerification, PrincipalMapping principalMapping, Duration reloadInterval,
      IdentityChange reloadIdentityChange, List<Path> crlFiles, OcspMode ocsp, Optional<URI> ocspResponder,
      Duration ocspCacheMax, boolean ocspStapling, Optional<SslContextFactory> sslContextFactory) {
    this.fips = fips;
    this.engineSetting = engineSetting;
    this.suppliedEngine = suppliedEngine;
    this.engine = engine;
    this.protocols = List.copyOf(protocols);
    this.cipherSuites = List.copyOf(cipherSuites);
    this.allowWeakCipherSuites = allowWeakCipherSuites;
    this.keyStore = keyStore;
    this.trustStore = trustStore;
    this.clientAuth = clientAuth;
    this.hostnameVerification = hostnameVerification;
    this.principalMapping = principalMapping;
    this.reloadInterval = reloadInterval;
    this.reloadIdentityChange = reloadIdentityChange;
    this.crlFiles = List.copyOf(crlFiles);
    this.ocsp = ocsp;
    this.ocspResponder = ocspResponder;
    this.ocspCacheMax = ocspCacheMax;
    this.ocspStapling = ocspStapling;
    this.sslContextFactory = sslContextFactory;
  }

  /**
   * Whether the FIPS profile is on ({@code securethrift.fips}): the TLS layer then enables only
   * {@link CipherSuites#FIPS} by default and refuses keys and certificates outside FIPS approval when it loads the
   * stores.
   */
  public boolean fips() {
    return fips;
  }

  /**
   * The engine that runs: the one configured, or {@code auto}'s choice on this machine, the same for every user of
   * the configuration (Thrift transports, the Netty server, ZooKeeper). Never {@link TlsEngine#AUTO}.
   *
   * @throws ConfigException only in a configuration without TLS, which is built without checking its engine, if the
   *     engine cannot run here
   */
  public TlsEngine engine() {
    return TlsEngine.of(engineProvider().token());
  }

  /**
   * The engine that runs ({@link #engine()}), to ask how to make its contexts.
   *
   * @throws ConfigException as {@link #engine()}
   */
  public TlsEngineProvider engineProvider() {
    return engine != null ? engine : TlsEngineCatalog.resolve(engineSetting, suppliedEngine);
  }

  /** The engine as configured, {@code auto} unresolved, which properties and derived configurations carry. */
  TlsEngine engineSetting() {
    return engineSetting;
  }

  /** The configuration's own engine, given in code instead of by name. */
  Optional<TlsEngineProvider> suppliedEngine() {
    return suppliedEngine;
  }

  /** Enabled protocol versions, most preferred first. */
  public List<String> protocols() {
    return protocols;
  }

  /** Enabled suites; empty means the engine's suites that {@link CipherSuites} accepts. */
  public List<String> cipherSuites() {
    return cipherSuites;
  }

  /** Whether {@link #cipherSuites()} was allowed to name suites outside {@link CipherSuites}' rule. */
  public boolean allowWeakCipherSuites() {
    return allowWeakCipherSuites;
  }

  /** This side's certificate and key (required on servers, enables client authentication on clients). */
  public Optional<StoreLocation> keyStore() {
    return keyStore;
  }

  /** The certificates this side trusts; empty means the JVM's default trust store. */
  public Optional<StoreLocation> trustStore() {
    return trustStore;
  }

  /** Whether a server asks for client certificates. */
  public ClientAuth clientAuth() {
    return clientAuth;
  }

  /** Whether a client checks the server certificate's SAN against the host it dialled. */
  public boolean hostnameVerification() {
    return hostnameVerification;
  }

  /** How a server names a client from its certificate. */
  public PrincipalMapping principalMapping() {
    return principalMapping;
  }

  /** How often key, trust and CRL files are checked for changes; zero disables reloading. */
  public Duration reloadInterval() {
    return reloadInterval;
  }

  /**
   * Whether a reload may replace this side's certificate with one naming another identity (subject, set of subject
   * alternative names, first DNS, e-mail or URI name); trust store changes are always taken.
   */
  public IdentityChange reloadIdentityChange() {
    return reloadIdentityChange;
  }

  /** CRL files (PEM or DER) the peer's certificates are checked against, reloaded like the stores; may be empty. */
  public List<Path> crlFiles() {
    return crlFiles;
  }

  /** Whether and how strictly the peer's certificates are checked with OCSP. */
  public OcspMode ocsp() {
    return ocsp;
  }

  /** The OCSP responder asked about every certificate; empty means each certificate's own (its AIA extension). */
  public Optional<URI> ocspResponder() {
    return ocspResponder;
  }

  /**
   * How long, at most, an OCSP response is reused ({@code securethrift.tls.revocation.ocsp.cache.max}), within its own
   * nextUpdate; zero means none is.
   */
  public Duration ocspCacheMax() {
    return ocspCacheMax;
  }

  /**
   * Whether a server staples the OCSP response for its own certificate to its handshakes
   * ({@code securethrift.tls.revocation.ocsp.stapling}).
   */
  public boolean ocspStapling() {
    return ocspStapling;
  }

  /** Whether the peer's certificates are checked for revocation at all: CRL files given or OCSP on. */
  public boolean checksRevocation() {
    return !crlFiles.isEmpty() || ocsp != OcspMode.OFF;
  }

  /** This configuration's TLS context factory; empty means the TLS module's standard one. */
  public Optional<SslContextFactory> sslContextFactory() {
    return sslContextFactory;
  }
}
