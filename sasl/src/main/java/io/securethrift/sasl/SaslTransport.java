package io.securethrift.sasl;

import io.securethrift.core.Limits;
import io.securethrift.core.internal.FrameTransport;
import io.securethrift.core.spi.LayerProvider.Role;
import java.util.Arrays;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The data phase of the Thrift SASL protocol after a successful negotiation, either side: 4-byte big-endian length,
 * payload, where the payload is a SASL-wrapped token under {@code auth-int} and {@code auth-conf}, or an AES-GCM
 * record once a privacy key exchange is done ({@link SaslData}).
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

  private final SaslData data;
  private final boolean wraps;
  private final byte[] header = new byte[4];
  /** Outgoing bytes not yet sent, after 4 bytes kept free for the frame header. */
  private byte[] out = new byte[INITIAL_BUFFER];
  private int outLength = 4;
  /** Header and record of one AES-GCM frame, reused so a record costs one write and no allocation. */
  private byte[] record = new byte[0];

  SaslTransport(TTransport stream, SaslData data, Limits limits, Role role) {
    super(stream, data.identity(), limits, Framing.STREAM, role);
    this.data = data;
    this.wraps = data.wraps();
  }

  /** Largest number of plain bytes sent in one frame: the negotiated raw send size, or the AES-GCM record size. */
  public int chunkSize() {
    return data.chunkSize();
  }

  @Override
  public void close() {
    try {
      super.close();
    } finally {
      data.dispose();
    }
  }

  /** A server whose first frame may be a key exchange reads it before the first call takes the identity. */
  @Override
  protected void beforeCall() throws TTransportException {
    if (data.awaitingHello()) {
      fill();
    }
  }

  @Override
  protected byte[] decode(byte[] payload, int length) throws TTransportException {
    byte[] plain = data.unwrap(payload, length);
    byte[] reply = data.takeReply();
    if (reply != null) {
      // The answer to a key exchange: sent at once, since the client waits for it before its first call.
      putLength(header, 0, reply.length);
      stream().write(header, 0, 4);
      stream().write(reply, 0, reply.length);
      stream().flush();
      peerIdentity(data.identity());
    }
    return plain;
  }

  /** AES-GCM records are opened straight into the read buffer; tokens and plain frames go through {@link #decode}. */
  @Override
  protected int decodeInto(byte[] payload, int length, byte[] out, int outOffset) throws TTransportException {
    return data.open(payload, length, out, outOffset);
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    int chunkSize = data.chunkSize();
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

  /** Sends {@code length} plain bytes as one frame, wrapped or sealed if the QOP says so. */
  private void sendFrame(byte[] buf, int off, int length) throws TTransportException {
    if (data.sealsRecords()) {
      if (record.length < GcmRecords.sealedLength(length) + 4) {
        record = new byte[GcmRecords.sealedLength(data.chunkSize()) + 4];
      }
      int sealed = data.seal(buf, off, length, record, 4);
      putLength(record, 0, sealed);
      stream().write(record, 0, sealed + 4);
      return;
    }
    byte[] payload = buf;
    int payloadOffset = off;
    int payloadLength = length;
    if (wraps) {
      payload = data.wrap(buf, off, length);
      payloadOffset = 0;
      payloadLength = payload.length;
    }
    putLength(header, 0, payloadLength);
    stream().write(header, 0, 4);
    stream().write(payload, payloadOffset, payloadLength);
  }
}
