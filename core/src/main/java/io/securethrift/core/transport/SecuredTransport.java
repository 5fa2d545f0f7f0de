package io.securethrift.core.transport;

import io.securethrift.core.identity.PeerIdentity;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A connected transport that knows who its peer is. Everything securethrift's factories return is one, whatever the
 * mode, so code can ask how a connection was secured without knowing the layers.
 */
public abstract class SecuredTransport extends TTransport {
  /**
   * A thread-pool server connection's maximum age, which its worker keeps between calls; null without one (clients,
   * the non-blocking server's per-call transports).
   */
  ConnectionAge age;

  /** Public, as it always was: core's internal framing and netty-server's transports extend it from other packages. */
  public SecuredTransport() {}

  /** The peer and how the connection to it was secured. */
  public abstract PeerIdentity peerIdentity();

  /**
   * A protocol from {@code factory} over this transport that also bounds what the peer's messages declare: container
   * sizes are checked against the bytes received (libthrift 0.17 lets a list of structs of any size through), and a
   * framed message cannot run on into the next frame. Use it for clients; servers built with
   * {@link ServerTransportFactory} get it on their input without asking.
   *
   * <pre>{@code
   * MyService.Client client = new MyService.Client(transport.protocol(new TCompactProtocol.Factory()));
   * }</pre>
   */
  public final TProtocol protocol(TProtocolFactory factory) {
    return FrameBoundedProtocol.wrap(factory.getProtocol(this));
  }

  /**
   * Called by a server before it takes {@link #peerIdentity()} for the next call: a transport whose data phase may
   * still add to the identity (a SASL privacy key exchange ahead of the first call) reads that far here.
   */
  protected void beforeCall() throws TTransportException {
    // Nothing to settle by default.
  }

  /** Called by a frame-bounded protocol when it starts reading a message; transports that bound messages override. */
  protected void messageBegins() {
    // Nothing to track by default.
  }

  /** Called by a frame-bounded protocol when it has read a whole message. */
  protected void messageEnds() {
    // Nothing to track by default.
  }
}
