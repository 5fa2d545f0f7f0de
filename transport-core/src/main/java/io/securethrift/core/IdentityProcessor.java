package io.securethrift.core;

import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each call with the connection's {@link PeerIdentity} as the {@link PeerIdentity#current()} one, reading the
 * call through a {@link FrameBoundedProtocol} so nothing the caller declares is allocated before it has arrived.
 */
final class IdentityProcessor implements TProcessor {
  private static final Logger LOG = LoggerFactory.getLogger(IdentityProcessor.class);
  private final TProcessor delegate;

  IdentityProcessor(TProcessor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    if (!(in.getTransport() instanceof SecuredTransport)) {
      delegate.process(in, out);
      return;
    }
    SecuredTransport transport = (SecuredTransport) in.getTransport();
    transport.beforeCall();
    TProtocol bounded = FrameBoundedProtocol.wrap(in);
    try {
      PeerIdentity.runAs(transport.peerIdentity(), () -> delegate.process(bounded, out));
    } catch (RuntimeException | TProtocolException e) {
      // Generated processors catch what a handler throws, and answer a malformed argument list with an exception
      // reply, so what gets here comes from reading the call: a message header that is not the protocol's (a bad
      // protocol id or version), or libthrift 0.17's readers indexing past the frame on malformed input (an overlong
      // varint, a negative length). It is the peer's doing, so it ends the connection with one WARN; libthrift's
      // loop would log an ERROR and a stack trace for anything but an end of file.
      String peer = String.valueOf(transport.peerIdentity().remoteAddress());
      LOG.warn("closing connection with {}: malformed message ({})", peer, PeerText.sanitize(e.toString()));
      transport.close();
      throw new TTransportException(TTransportException.END_OF_FILE, "closed the connection with " + peer
          + ": malformed message", e);
    }
  }
}
