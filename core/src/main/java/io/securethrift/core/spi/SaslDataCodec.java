package io.securethrift.core.spi;

import io.securethrift.core.identity.PeerIdentity;
import org.apache.thrift.transport.TTransportException;

/**
 * The data phase of a completed Thrift SASL negotiation for servers that frame the bytes themselves: each data frame
 * (4-byte length, payload) carries a token to {@link #unwrap}, and outgoing bytes go out in frames of at most
 * {@link #chunkSize()} plain bytes, each {@link #wrap}ped. Unwrapped bytes are a stream: a frame may hold part of a
 * message or several. Tokens must be unwrapped and wrapped in the order they travel, one at a time.
 *
 * <p>With {@code securethrift.sasl.privacy} other than {@code gss}, a server's first received frame may be a key
 * exchange (docs/sasl-privacy.md): it unwraps to nothing, {@link #takeReply()} then holds the answer to send before
 * anything else, and from there on frames are AES-GCM records and {@link #identity()} says so.
 */
public interface SaslDataCodec {
  /**
   * The authenticated peer: principal, mechanism, QOP, and what the stream layer established; after a key exchange,
   * also the privacy in use.
   */
  PeerIdentity identity();

  /**
   * Whether the negotiated QOP wraps data ({@code auth-int}, {@code auth-conf}); otherwise frames carry plain bytes.
   */
  boolean wraps();

  /** Largest number of plain bytes per outgoing frame: the negotiated raw send size when wrapping. */
  int chunkSize();

  /** The plain bytes of one received frame's payload; refuses a frame that fails its integrity check. */
  byte[] unwrap(byte[] payload, int length) throws TTransportException;

  /** The payload of one outgoing frame for {@code length} plain bytes (at most {@link #chunkSize()}). */
  byte[] wrap(byte[] plain, int offset, int length) throws TTransportException;

  /**
   * The payload of a frame to send at once, before any reply, when the last {@link #unwrap} was a key exchange; null
   * otherwise. Returned once.
   */
  byte[] takeReply();

  /** Releases the mechanism's keys once the connection is closed. */
  void dispose();
}
