package io.securethrift.sasl;

import io.securethrift.core.PeerText;
import io.securethrift.core.Limits;
import io.securethrift.core.PeerIdentity;
import io.securethrift.core.internal.FrameTransport;
import java.util.Arrays;
import java.util.OptionalInt;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The data phase of the Thrift SASL protocol after a successful negotiation, either side: 4-byte big-endian length,
 * payload, where the payload is a SASL-wrapped token under {@code auth-int} and {@code auth-conf}.
 *
 * <p>Wrapped output is cut into tokens of at most the negotiated raw send size, which C (Cyrus) and Python peers
 * enforce, and each token goes out as soon as it is full, so wrapping overlaps with the peer's unwrapping instead of
 * waiting for the whole message; large writes are wrapped straight from the caller's array. libthrift's Java reader
 * takes frames one at a time, so it accepts a message spread over several tokens, and so does this one: incoming
 * frames are a stream ({@link Framing#STREAM}), each checked against {@code securethrift.limit.max.frame.size} before
 * anything is allocated, and a length a message declares is backed by frames read ahead.
 */
final class SaslTransport extends FrameTransport {
  private static final int INITIAL_BUFFER = 1024;

  private final SaslEndpoint sasl;
  private final boolean wraps;
  private final int chunkSize;
  private final byte[] header = new byte[4];
  /** Outgoing bytes not yet sent, after 4 bytes kept free for the frame header. */
  private byte[] out = new byte[INITIAL_BUFFER];
  private int outLength = 4;

  SaslTransport(TTransport stream, SaslEndpoint sasl, PeerIdentity identity, Limits limits) {
    super(stream, identity, limits, Framing.STREAM);
    this.sasl = sasl;
    this.wraps = identity.qop().orElseThrow().wrapsMessages();
    this.chunkSize = wraps ? rawSendSize(sasl, limits.maxFrameSize()) : limits.maxFrameSize();
  }

  /**
   * The mechanism's raw send size (what the peer can take, minus wrapping overhead); bounded by our own frame
   * limit with room for that overhead, since the peer probably runs the same limit. Both negotiations refuse a size
   * of 0 or less ({@link QopLists#bufferRefusal}), so any size stated here is honoured.
   */
  private static int rawSendSize(SaslEndpoint sasl, int maxFrameSize) {
    int limit = maxFrameSize - 1024;
    OptionalInt negotiated = QopLists.rawSendSize(sasl);
    if (negotiated.isPresent() && negotiated.getAsInt() <= 0) {
      throw new IllegalStateException("negotiation accepted a raw send size of " + negotiated.getAsInt());
    }
    return negotiated.isPresent() ? Math.min(negotiated.getAsInt(), limit) : limit;
  }

  /** Largest number of plain bytes sent in one frame: the negotiated raw send size when wrapping. */
  public int chunkSize() {
    return chunkSize;
  }

  @Override
  public void close() {
    try {
      super.close();
    } finally {
      sasl.dispose();
    }
  }

  @Override
  protected byte[] decode(byte[] payload, int length) throws TTransportException {
    if (!wraps) {
      return payload;
    }
    try {
      return sasl.unwrap(payload, 0, length);
    } catch (SaslException | RuntimeException e) {
      // The JDK's DIGEST-MD5 unwrap throws NegativeArraySizeException or ArrayIndexOutOfBoundsException on tokens
      // shorter than its trailer: those are forged frames too.
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "SASL " + peerIdentity().qop().orElseThrow()
          + " frame from " + peerIdentity().remoteAddress() + " failed its integrity check: " + PeerText.describe(e),
          Describe.loggable(e));
    }
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    int offset = off;
    int remaining = len;
    while (remaining > 0) {
      int buffered = outLength - 4;
      if (buffered == 0 && remaining >= chunkSize) {
        sendFrame(buf, offset, chunkSize);
        offset += chunkSize;
        remaining -= chunkSize;
        continue;
      }
      int n = Math.min(remaining, chunkSize - buffered);
      if (outLength + n > out.length) {
        out = Arrays.copyOf(out, (int) Math.min(Math.max(2L * out.length, outLength + n), chunkSize + 4L));
      }
      System.arraycopy(buf, offset, out, outLength, n);
      outLength += n;
      offset += n;
      remaining -= n;
      if (outLength - 4 == chunkSize) {
        sendBuffered();
      }
    }
  }

  @Override
  public void flush() throws TTransportException {
    if (outLength > 4) {
      sendBuffered();
    }
    stream().flush();
  }

  private void sendBuffered() throws TTransportException {
    int length = outLength - 4;
    outLength = 4;
    if (wraps) {
      sendFrame(out, 4, length);
    } else {
      putLength(out, 0, length);
      stream().write(out, 0, length + 4);
    }
  }

  /** Sends {@code length} plain bytes as one frame, wrapped if the QOP says so. */
  private void sendFrame(byte[] buf, int off, int length) throws TTransportException {
    byte[] payload = buf;
    int payloadOffset = off;
    int payloadLength = length;
    if (wraps) {
      try {
        payload = sasl.wrap(buf, off, length);
      } catch (SaslException e) {
        throw new TTransportException(TTransportException.UNKNOWN, "cannot SASL-wrap an outgoing message: "
            + e.getMessage(), e);
      }
      payloadOffset = 0;
      payloadLength = payload.length;
    }
    putLength(header, 0, payloadLength);
    stream().write(header, 0, 4);
    stream().write(payload, payloadOffset, payloadLength);
  }
}
