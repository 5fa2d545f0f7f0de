package io.securethrift.core.spi;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.PeerIdentity;
import java.util.Optional;

/**
 * Service-provider seam through which the TLS and SASL modules plug their layers into core, found with
 * {@link java.util.ServiceLoader}. Core depends on no module; a module registers itself in
 * {@code META-INF/services/io.securethrift.core.spi.LayerProvider}. Each call receives the
 * {@link PeerIdentity.Issuer}, the only way to create the identities a layer reports; keep it inside the layer.
 */
public interface LayerProvider {
  /** Which end of a connection a layer serves; role-specific settings are checked when the layer is made. */
  enum Role {
    CLIENT,
    SERVER
  }

  /** The stream layer for this configuration and role, if this provider implements the mode's stream part. */
  Optional<StreamLayer> streamLayer(SecurityConfig config, Role role, PeerIdentity.Issuer identities);

  /** The message layer for this configuration and role, if this provider implements the mode's message part. */
  Optional<MessageLayer> messageLayer(SecurityConfig config, Role role, PeerIdentity.Issuer identities);
}
