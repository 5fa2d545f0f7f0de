package io.securethrift.core.transport;

import io.securethrift.core.Limits;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.MessageLayer;
import org.apache.thrift.transport.TTransport;

/** The message part of modes without SASL: Thrift framing. */
final class FramedMessageLayer implements MessageLayer {
  private final Limits limits;
  private final Role role;

  FramedMessageLayer(Limits limits, Role role) {
    this.limits = limits;
    this.role = role;
  }

  @Override
  public SecuredTransport open(TTransport stream, PeerIdentity streamIdentity, String host) {
    return new FramedTransport(stream, streamIdentity, limits, role);
  }
}
