package io.securethrift.core.transport;

import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.DataRefusal;
import io.securethrift.core.internal.SharedAccess;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransportException;

/**
 * Runs each call with the connection's {@link PeerIdentity} as the {@link PeerIdentity#current()} one, reading the
 * call through a {@link FrameBoundedProtocol} so nothing the caller declares is allocated before it has arrived. A
 * connection closed for what its peer sent is reported once, through the server's rate-limited warning. Before each
 * call, a connection that has reached its end ({@link ConnectionAge}: its maximum age or its client's Kerberos
 * ticket end) is closed instead.
 */
final class IdentityProcessor implements TProcessor {
  private static final SharedAccess.IdentityOperations IDENTITY = SharedAccess.identity();

  private final TProcessor delegate;
  private final HandshakeAudit audit;

  IdentityProcessor(TProcessor delegate, HandshakeAudit audit) {
    this.delegate = delegate;
    this.audit = audit;
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    if (!(in.getTransport() instanceof SecuredTransport)) {
      delegate.process(in, out);
      return;
    }
    SecuredTransport transport = (SecuredTransport) in.getTransport();
    ConnectionAge age = transport.age;
    if (age != null && !age.nextCallArrives()) {
      // Between calls: the last reply has been written and no byte of a next call has come.
      audit.closed(transport.peerIdentity(), age.end().cause(), age.age());
      transport.close();
      throw new TTransportException(TTransportException.END_OF_FILE, "closed the connection with "
          + PeerText.sanitize(String.valueOf(transport.peerIdentity().remoteAddress())) + " between calls: "
          + age.end().reason());
    }
    TProtocol bounded = FrameBoundedProtocol.wrap(in);
    try {
      transport.beforeCall();
      IDENTITY.runAs(transport.peerIdentity(), () -> delegate.process(bounded, out));
    } catch (DataRefusal e) {
      audit.closing(transport.peerIdentity().remoteAddress(), HandshakeAudit.Refusal.FRAME, e.reason());
      transport.close();
      throw e;
    } catch (RuntimeException | TProtocolException e) {
      // Generated processors catch what a handler throws, and answer a malformed argument list with an exception
      // reply, so what gets here comes from reading the call: a message header that is not the protocol's (a bad
      // protocol id or version), or libthrift 0.17's readers indexing past the frame on malformed input (an overlong
      // varint, a negative length). It is the peer's doing, so it ends the connection with one WARN; libthrift's
      // loop would log an ERROR and a stack trace for anything but an end of file.
      String peer = String.valueOf(transport.peerIdentity().remoteAddress());
      audit.closing(transport.peerIdentity().remoteAddress(), HandshakeAudit.Refusal.MESSAGE,
          "malformed message (" + PeerText.sanitize(e.toString()) + ")");
      transport.close();
      throw new TTransportException(TTransportException.END_OF_FILE, "closed the connection with " + peer
          + ": malformed message", e);
    }
  }
}
