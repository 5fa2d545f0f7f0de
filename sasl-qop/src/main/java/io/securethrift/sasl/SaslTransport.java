package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.PeerIdentity;
import io.securethrift.core.SecuredTransport;
import io.securethrift.core.spi.FrameReader;
import java.util.Arrays;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data phase of the Thrift SASL protocol after a successful negotiation, either side: 4-byte big-endian length,
 * payload, where the payload is a SASL-wrapped token under {@code auth-int} and {@code auth-conf}.
 *
 * <p>Wrapped output is cut into tokens of at most the negotiated raw send size, which C (Cyrus) and Python peers
 * enforce, and each token goes out as soon as it is full, so wrapping overlaps with the peer's unwrapping instead of
 * waiting for the whole message; large writes are wrapped straight from the caller's array. libthrift's Java reader
 * takes frames one at a time, so it accepts a message spread over several tokens. Incoming frames are checked
 * against {@code securethrift.limit.max.frame.size} before anything is allocated.
 */
public final class SaslTransport extends SecuredTransport {
  private static final Logger LOG = LoggerFactory.getLogger(SaslTransport.class);
  private static final int INITIAL_BUFFER = 1024;

  private final TTransport stream;
  private final SaslEndpoint sasl;
  private final PeerIdentity identity;
  private final boolean wraps;
  private final int maxFrameSize;
  private final int chunkSize;
  private final FrameReader reader;
  private final TConfiguration configuration;
  private final byte[] header = new byte[4];
  /** Outgoing bytes not yet sent, after 4 bytes kept free for the frame header. */
  private byte[] out = new byte[INITIAL_BUFFER];
  private int outLength = 4;
  private byte[] in = new byte[0];
  private int inPosition;
  private int inLength;

  SaslTransport(TTransport stream, SaslEndpoint sasl, PeerIdentity identity, Limits limits) {
    this.stream = stream;
    this.sasl = sasl;
    this.identity = identity;
    this.wraps = identity.qop().orElseThrow().wrapsMessages();
    this.maxFrameSize = limits.maxFrameSize();
    this.chunkSize = wraps ? rawSendSize(sasl, maxFrameSize) : maxFrameSize;
    this.reader = new FrameReader(maxFrameSize, ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
    this.configuration = new TConfiguration(maxFrameSize, maxFrameSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
  }

  /**
   * The mechanism's raw send size (what the peer can take, minus wrapping overhead); bounded by our own frame
   * limit with room for that overhead, since the peer probably runs the same limit.
   */
  private static int rawSendSize(SaslEndpoint sasl, int maxFrameSize) {
    int limit = maxFrameSize - 1024;
    Object negotiated = sasl.negotiatedProperty(Sasl.RAW_SEND_SIZE);
    if (negotiated instanceof String s) {
      try {
        int size = Integer.parseInt(s);
        if (size > 0) {
          return Math.min(size, limit);
        }
      } catch (NumberFormatException ignored) {
        // Fall through to our own limit: a mechanism that states no size takes any.
      }
    }
    return limit;
  }

  /** Largest number of plain bytes sent in one frame: the negotiated raw send size when wrapping. */
  public int chunkSize() {
    return chunkSize;
  }

  @Override
  public PeerIdentity peerIdentity() {
    return identity;
  }

  @Override
  public boolean isOpen() {
    return stream.isOpen();
  }

  @Override
  public void open() throws TTransportException {
    if (!stream.isOpen()) {
      throw new TTransportException(TTransportException.NOT_OPEN, "a SASL transport opens through its factory");
    }
  }

  @Override
  public void close() {
    try {
      stream.close();
    } finally {
      sasl.dispose();
    }
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    if (inPosition == inLength) {
      nextFrame();
    }
    int n = Math.min(len, inLength - inPosition);
    System.arraycopy(in, inPosition, buf, off, n);
    inPosition += n;
    return n;
  }

  private void nextFrame() throws TTransportException {
    do {
      int length;
      try {
        length = reader.readFrame(stream);
      } catch (TTransportException e) {
        if (e.getType() == TTransportException.CORRUPTED_DATA) {
          LOG.warn("closing SASL connection with {}: {}", identity.remoteAddress(), e.getMessage());
          close();
        }
        throw e;
      }
      if (wraps) {
        if (length == 0) {
          continue;
        }
        try {
          in = sasl.unwrap(reader.buffer(), 0, length);
        } catch (SaslException e) {
          close();
          throw new TTransportException(TTransportException.CORRUPTED_DATA, "SASL " + identity.qop().orElseThrow()
              + " frame from " + identity.remoteAddress() + " failed its integrity check: " + e.getMessage(), e);
        }
      } else {
        in = reader.buffer();
      }
      inLength = in.length;
      inPosition = 0;
    } while (inLength == 0);
  }

  @Override
  public byte[] getBuffer() {
    return in;
  }

  @Override
  public int getBufferPosition() {
    return inPosition;
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return inLength - inPosition;
  }

  @Override
  public void consumeBuffer(int len) {
    inPosition += len;
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
    stream.flush();
  }

  private void sendBuffered() throws TTransportException {
    int length = outLength - 4;
    outLength = 4;
    if (wraps) {
      sendFrame(out, 4, length);
    } else {
      BigEndian.putInt(out, 0, length);
      stream.write(out, 0, length + 4);
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
    BigEndian.putInt(header, 0, payloadLength);
    stream.write(header, 0, 4);
    stream.write(payload, payloadOffset, payloadLength);
  }

  @Override
  public TConfiguration getConfiguration() {
    return configuration;
  }

  @Override
  public void updateKnownMessageSize(long size) {
    // Frames are bounded one by one; a message may span several wrapped frames.
  }

  /**
   * Protocols call this before allocating a string or container of {@code numBytes}. A wrapped message may span
   * frames, so the bound is the frame limit, which no single field of a well-behaved peer's message exceeds.
   */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes > maxFrameSize) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "message declares " + numBytes
          + " bytes, more than " + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxFrameSize + " bytes)");
    }
  }

  @Override
  public void resetMessageSizeAndConsumedBytes(long newSize) {
    // Sizes are enforced per frame; see checkReadBytesAvailable.
  }
}
