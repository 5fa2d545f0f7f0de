package io.securethrift.core.spi;

import org.apache.thrift.transport.TTransportException;

/**
 * The server side of one connection's Thrift SASL negotiation, one message at a time, for servers that read the
 * messages themselves (securethrift's netty-server) instead of letting the layer block on a stream. The rules are the
 * blocking layer's own: the same mechanisms, QOP and cipher checks, failure reasons and identity. Replies (OK,
 * COMPLETE, or BAD with a reason) go to the transport given when the negotiator was made, one whole message per
 * flush.
 */
public interface SaslNegotiator {
  /**
   * Takes one negotiation message whose length the caller has already checked against
   * {@code securethrift.limit.max.negotiation.message.size}. Evaluates the mechanism, so it may block (GSSAPI may
   * reach a replay cache); never call it on an event loop.
   *
   * @param status the message's status byte as received
   * @param payload the message's payload
   * @return the data phase once the negotiation is complete; null while more messages are needed
   * @throws TTransportException when the negotiation failed (a BAD reason has been sent); close the connection
   */
  SaslDataCodec receive(byte status, byte[] payload) throws TTransportException;

  /**
   * Reports a message the server refused to read (its length header is over the limit, or its status byte is
   * invalid) to the peer as the blocking server does, and returns the error to close the connection with.
   */
  TTransportException refuse(TTransportException unreadable);

  /** Releases the mechanism of a negotiation that will not complete (the connection closed or timed out). */
  void dispose();
}
