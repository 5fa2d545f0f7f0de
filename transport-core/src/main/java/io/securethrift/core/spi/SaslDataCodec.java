package io.securethrift.core.spi;

import io.securethrift.core.PeerIdentity;
import org.apache.thrift.transport.TTransportException;

/**
 * The data phase of a completed Thrift SASL negotiation for servers that frame the bytes themselves: each data frame
 * (4-byte length, payload) carries a token to {@link #unwrap}, and outgoing bytes go out in frames of at most
 * {@link #chunkSize()} plain bytes, each {@link #wrap}ped. Unwrapped bytes are a stream: a frame may hold part of a
 * message or several. Tokens must be unwrapped and wrapped in the order they travel, one at a time.
 */
public interface SaslDataCodec {
  /** The authenticated peer: principal, mechanism, QOP, and what the stream layer established. */
  PeerIdentity identity();

  /** Whether the negotiated QOP wraps data ({@code auth-int}, {@code auth-conf}); otherwise frames carry plain bytes. */
  boolean wraps();

  /** Largest number of plain bytes per outgoing frame: the negotiated raw send size when wrapping. */
  int chunkSize();

  /** The plain bytes of one received frame's payload; refuses a frame that fails its integrity check. */
  byte[] unwrap(byte[] payload, int length) throws TTransportException;

  /** The payload of one outgoing frame for {@code length} plain bytes (at most {@link #chunkSize()}). */
  byte[] wrap(byte[] plain, int offset, int length) throws TTransportException;

  /** Releases the mechanism's keys once the connection is closed. */
  void dispose();
}
