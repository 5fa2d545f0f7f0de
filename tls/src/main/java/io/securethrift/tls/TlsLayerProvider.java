package io.securethrift.tls;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsSettings;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.LayerProvider;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.spi.StreamLayer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plugs TLS into core for the modes {@code tls} and {@code sasl-over-tls}, found through
 * {@code META-INF/services}. Each layer holds one cached, reloading context made by its configuration's
 * {@link io.securethrift.core.SslContextFactory}, or by {@link StandardSslContextFactory} when it sets none.
 */
public final class TlsLayerProvider implements LayerProvider {
  private static final Logger LOG = LoggerFactory.getLogger(TlsLayerProvider.class);
  private static final AtomicBoolean NO_VERIFICATION_LOGGED = new AtomicBoolean();

  /** For the service loader. */
  public TlsLayerProvider() {}

  @Override
  public Optional<StreamLayer> streamLayer(SecurityConfig config, Role role, PeerIdentity.Issuer identities) {
    if (!config.mode().usesTls()) {
      return Optional.empty();
    }
    TlsSettings tls = config.tls();
    if (role == Role.SERVER && tls.keyStore().isEmpty()) {
      throw new ConfigException("securethrift.tls.keystore.path", "empty, but a TLS server needs its certificate and"
          + " private key; give a JKS, PKCS#12 or PEM file");
    }
    if (role == Role.SERVER && tls.ocspStapling()) {
      tls.engineProvider().serverStaplingRefusal().ifPresent(refusal -> {
        throw new ConfigException(ConfigProperty.TLS_REVOCATION_OCSP_STAPLING.key(), "true, but " + refusal);
      });
    }
    if (role == Role.CLIENT && !tls.hostnameVerification() && NO_VERIFICATION_LOGGED.compareAndSet(false, true)) {
      LOG.warn("securethrift.tls.hostname.verification=false: TLS clients accept any certificate from a trusted CA,"
          + " whichever host it names; anyone holding such a certificate can impersonate a server");
    }
    ReloadingContext context = new ReloadingContext(
        tls.sslContextFactory().orElse(StandardSslContextFactory.INSTANCE), tls, role);
    return Optional.of(new TlsStreamLayer(config.mode(), tls, role, context, identities));
  }

  @Override
  public Optional<MessageLayer> messageLayer(SecurityConfig config, Role role, PeerIdentity.Issuer identities) {
    return Optional.empty();
  }
}
