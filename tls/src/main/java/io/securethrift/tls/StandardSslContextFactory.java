package io.securethrift.tls;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SslContextFactory;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.spi.LayerProvider.Role;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The default {@link SslContextFactory}: key and trust material from the configured JKS, PKCS#12 or PEM files (the
 * JVM's default trust store when none is set), the configured key held decoded in memory ({@link SingleKeyManager}),
 * the JDK's PKIX trust manager followed, when configured, by a revocation check (CRL files, OCSP; {@link
 * RevocationCheck}), and the configured engine (JSSE, or Conscrypt asked for by name). Protocols default to
 * TLS 1.3 and 1.2 and cipher suites to the engine's suites that {@link io.securethrift.core.CipherSuites} accepts.
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
    Optional<Provider> provider = EngineProviders.providerFor(settings.engine());
    SSLContext context = provider.isPresent() ? SSLContext.getInstance("TLS", provider.get())
        : SSLContext.getInstance("TLS");
    context.init(keys == null ? null : new KeyManager[] {keys}, trustManagers(settings), null);
    return context;
  }

  @Override
  public SSLParameters parameters(SSLContext context, TlsSettings settings, Role role) {
    return TlsPolicy.parameters(context, settings, role);
  }

  private static TrustManager[] trustManagers(TlsSettings settings) throws IOException, GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init(settings.trustStore().isPresent() ? StoreLoader.trustStore(settings.trustStore().get(),
        settings.fips()) : null);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509ExtendedTrustManager) {
        X509ExtendedTrustManager jdk = (X509ExtendedTrustManager) manager;
        return new TrustManager[] {new HandshakeTrustManager(jdk,
            RevocationCheck.create(settings, jdk.getAcceptedIssuers()), settings.fips())};
      }
    }
    throw new ConfigException("securethrift.tls.truststore.path", "the JDK offers no X.509 trust manager");
  }
}
