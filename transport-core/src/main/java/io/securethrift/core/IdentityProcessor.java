package io.securethrift.core;

import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;

/** Makes the connection's {@link PeerIdentity} the {@link PeerIdentity#current()} one while a call is processed. */
final class IdentityProcessor implements TProcessor {
  private final TProcessor delegate;

  IdentityProcessor(TProcessor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    if (in.getTransport() instanceof SecuredTransport secured) {
      PeerIdentity.runAs(secured.peerIdentity(), () -> delegate.process(in, out));
    } else {
      delegate.process(in, out);
    }
  }
}
