package io.securethrift.sasl;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.LayerProvider;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.spi.StreamLayer;
import java.util.Optional;

/**
 * Plugs the Thrift SASL protocol into core as the message layer of the {@code sasl} and
 * {@code sasl-over-tls} modes; registered in {@code META-INF/services}. Creating a layer checks the role's settings
 * and, for Kerberos, logs in from the keytab, so a bad configuration fails when the factory is made.
 */
public final class SaslLayerProvider implements LayerProvider {
  /** For the service loader. */
  public SaslLayerProvider() {}

  @Override
  public Optional<StreamLayer> streamLayer(SecurityConfig config, Role role, PeerIdentity.Issuer identities) {
    return Optional.empty();
  }

  @Override
  public Optional<MessageLayer> messageLayer(SecurityConfig config, Role role, PeerIdentity.Issuer identities) {
    if (!config.mode().usesSasl()) {
      return Optional.empty();
    }
    return Optional.of(role == Role.CLIENT ? new SaslClientLayer(config, identities)
        : new SaslServerLayer(config, identities));
  }
}
