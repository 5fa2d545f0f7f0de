package io.securethrift.core;

import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;

/**
 * Runs each call with the connection's {@link PeerIdentity} as the {@link PeerIdentity#current()} one, reading the
 * call through a {@link FrameBoundedProtocol} so nothing the caller declares is allocated before it has arrived.
 */
final class IdentityProcessor implements TProcessor {
  private final TProcessor delegate;

  IdentityProcessor(TProcessor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    if (in.getTransport() instanceof SecuredTransport) {
      TProtocol bounded = FrameBoundedProtocol.wrap(in);
      PeerIdentity.runAs(((SecuredTransport) in.getTransport()).peerIdentity(),
          () -> delegate.process(bounded, out));
    } else {
      delegate.process(in, out);
    }
  }
}
