package io.securethrift.core;

import io.securethrift.core.spi.MessageLayer;
import org.apache.thrift.transport.TTransport;

/** The message part of modes without SASL: Thrift framing. */
final class FramedMessageLayer implements MessageLayer {
  private final Limits limits;

  FramedMessageLayer(Limits limits) {
    this.limits = limits;
  }

  @Override
  public SecuredTransport open(TTransport stream, PeerIdentity streamIdentity, String host) {
    return new FramedTransport(stream, streamIdentity, limits);
  }
}
