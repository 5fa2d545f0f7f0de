package io.securethrift.tls;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SslContextFactory;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.TlsEngineContext;
import io.securethrift.core.spi.TlsEngineProvider;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The default {@link SslContextFactory}: key and trust material from the configured JKS, PKCS#12 or PEM files (the
 * JVM's default trust store when none is set), the configured key held decoded in memory ({@link SingleKeyManager}),
 * the JDK's PKIX trust manager followed, when configured, by a revocation check (CRL files, OCSP; {@link
 * RevocationCheck}), and the configuration's engine's JCA provider (the JVM's list for JSSE; Conscrypt asked for by
 * name). Engine {@code openssl} is no JCA provider: securethrift's own transports take its contexts from the engine
 * with the same key and trust managers, and {@link #createContext} refuses it. Protocols default to TLS 1.3 and 1.2
 * and cipher suites to the engine's suites that {@link io.securethrift.core.CipherSuites} accepts.
 */
public final class StandardSslContextFactory implements SslContextFactory {
  /** The shared instance; the factory holds no state. */
  public static final StandardSslContextFactory INSTANCE = new StandardSslContextFactory();

  private StandardSslContextFactory() {}

  @Override
  public SSLContext createContext(TlsSettings settings, Role role) throws IOException, GeneralSecurityException {
    return createContext(settings, settings.keyStore().isEmpty() ? null : StoreLoader.keyManager(
        settings.keyStore().get(), settings.fips()));
  }

  /**
   * A context presenting {@code keys}, none when null, and trusting the configured trust store: the reloading context
   * loads the key itself, so that the certificate it checks on a reload is the one the context presents.
   */
  SSLContext createContext(TlsSettings settings, SingleKeyManager keys) throws IOException, GeneralSecurityException {
    Optional<Provider> provider = jcaEngine(settings).provider();
    SSLContext context = provider.isPresent() ? SSLContext.getInstance("TLS", provider.get())
        : SSLContext.getInstance("TLS");
    context.init(keys == null ? null : new KeyManager[] {keys}, new TrustManager[] {trustManager(settings)}, null);
    return context;
  }

  /**
   * A new engine in {@code role} for a connection with {@code peerHost}:{@code peerPort}, from the configured engine
   * (a JCA context, or the contexts of an engine that is no JCA provider, such as {@code openssl}) with the policy
   * securethrift's transports apply: protocols, suites, client authentication, host-name checks, session tickets. For
   * a caller that drives TLS itself, as a benchmark measuring an engine's record cost in memory does; each call loads
   * the key store and builds a context afresh.
   *
   * @throws IOException when a store cannot be read
   * @throws GeneralSecurityException when the context cannot be made
   */
  public SSLEngine newEngine(TlsSettings settings, Role role, String peerHost, int peerPort)
      throws IOException, GeneralSecurityException {
    TlsEngineContext engines = engineContext(settings, settings.keyStore().isEmpty() ? null
        : StoreLoader.keyManager(settings.keyStore().get(), settings.fips()), role);
    return TlsPolicy.newEngine(engines, TlsPolicy.parameters(engines, settings, role), role, peerHost, peerPort);
  }

  /**
   * The engines securethrift's transports run for {@code role}, presenting {@code keys} (none when null): a JCA
   * context's, or, for an engine that is no JCA provider, the context it makes from the same key and trust managers.
   */
  TlsEngineContext engineContext(TlsSettings settings, SingleKeyManager keys, Role role)
      throws IOException, GeneralSecurityException {
    TlsEngineProvider engine = settings.engineProvider();
    if (engine.offersSslContext()) {
      return new JcaEngineContext(createContext(settings, keys));
    }
    try {
      return engine.newContext(role, keys, trustManager(settings));
    } catch (UnsupportedOperationException e) {
      throw new ConfigException(ConfigProperty.TLS_ENGINE.key(), engine.token() + " (" + engine.description()
          + ") makes neither a JCA SSLContext nor engines of its own (TlsEngineProvider.newContext), one of which"
          + " securethrift's Thrift transports run on; use jsse, conscrypt, openssl or auto");
    }
  }

  /**
   * The configuration's engine, which must make JCA contexts for a caller that takes an {@code SSLContext} (a
   * product's JCA hook; securethrift's own transports use {@link #engineContext}).
   *
   * @throws ConfigException naming {@code securethrift.tls.engine} for an engine that makes none ({@code openssl})
   */
  private static TlsEngineProvider jcaEngine(TlsSettings settings) {
    TlsEngineProvider engine = settings.engineProvider();
    if (!engine.offersSslContext()) {
      throw new ConfigException(ConfigProperty.TLS_ENGINE.key(), engine.token() + " (" + engine.description()
          + ") makes no JCA SSLContext, which this caller needs; use jsse, conscrypt or auto");
    }
    return engine;
  }

  @Override
  public SSLParameters parameters(SSLContext context, TlsSettings settings, Role role) {
    return TlsPolicy.parameters(new JcaEngineContext(context), settings, role);
  }

  private static HandshakeTrustManager trustManager(TlsSettings settings)
      throws IOException, GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init(settings.trustStore().isPresent() ? StoreLoader.trustStore(settings.trustStore().get(),
        settings.fips()) : null);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509ExtendedTrustManager) {
        X509ExtendedTrustManager jdk = (X509ExtendedTrustManager) manager;
        return new HandshakeTrustManager(jdk, RevocationCheck.create(settings, jdk.getAcceptedIssuers()),
            settings.fips());
      }
    }
    throw new ConfigException("securethrift.tls.truststore.path", "the JDK offers no X.509 trust manager");
  }
}
