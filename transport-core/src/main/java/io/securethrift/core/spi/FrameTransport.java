package io.securethrift.core.spi;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.PeerIdentity;
import io.securethrift.core.SecuredTransport;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A secured transport that exchanges length-prefixed frames over a stream: the reading half (bounded frames via
 * {@link FrameReader}, the buffer protocols read from directly, per-field size checks) and the bookkeeping every
 * such transport repeats. Subclasses say how a received frame becomes plain bytes (Thrift framing: as is; SASL:
 * unwrapped) and how writes become frames. Not thread-safe, like every Thrift transport.
 */
public abstract class FrameTransport extends SecuredTransport {
  private static final Logger LOG = LoggerFactory.getLogger(FrameTransport.class);

  private final TTransport stream;
  private final PeerIdentity identity;
  private final int maxFrameSize;
  private final FrameReader reader;
  private final TConfiguration configuration;
  private byte[] in = new byte[0];
  private int inPosition;
  private int inLength;

  protected FrameTransport(TTransport stream, PeerIdentity identity, Limits limits) {
    this.stream = stream;
    this.identity = identity;
    this.maxFrameSize = limits.maxFrameSize();
    this.reader = new FrameReader(maxFrameSize, ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
    this.configuration = new TConfiguration(maxFrameSize, maxFrameSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
  }

  /**
   * Turns a received frame's payload into plain bytes; an empty result is skipped. The array is the frame's own and
   * may be returned as is.
   */
  protected abstract byte[] decode(byte[] payload, int length) throws TTransportException;

  /** The underlying stream, for subclasses' writes. */
  protected final TTransport stream() {
    return stream;
  }

  protected final int maxFrameSize() {
    return maxFrameSize;
  }

  @Override
  public final PeerIdentity peerIdentity() {
    return identity;
  }

  @Override
  public final boolean isOpen() {
    return stream.isOpen();
  }

  @Override
  public final void open() throws TTransportException {
    if (!stream.isOpen()) {
      throw new TTransportException(TTransportException.NOT_OPEN, "a secured transport is opened by its factory");
    }
  }

  @Override
  public void close() {
    stream.close();
  }

  @Override
  public final int read(byte[] buf, int off, int len) throws TTransportException {
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
      try {
        int length = reader.readFrame(stream);
        in = length == 0 ? new byte[0] : decode(reader.buffer(), length);
      } catch (TTransportException e) {
        if (e.getType() == TTransportException.CORRUPTED_DATA) {
          LOG.warn("closing connection with {}: {}", identity.remoteAddress(), e.getMessage());
          close();
        }
        throw e;
      }
      inLength = in.length;
      inPosition = 0;
    } while (inLength == 0);
  }

  /** Bytes of the current frame not yet read; a message cannot need more from this frame than this. */
  protected final int remainingInFrame() {
    return inLength - inPosition;
  }

  @Override
  public final byte[] getBuffer() {
    return in;
  }

  @Override
  public final int getBufferPosition() {
    return inPosition;
  }

  @Override
  public final int getBytesRemainingInBuffer() {
    return inLength - inPosition;
  }

  @Override
  public final void consumeBuffer(int len) {
    inPosition += len;
  }

  @Override
  public final TConfiguration getConfiguration() {
    return configuration;
  }

  @Override
  public final void updateKnownMessageSize(long size) {
    // Frames are bounded one by one as they arrive; nothing more to track.
  }

  /**
   * Protocols call this before allocating a string or container of {@code numBytes}. No field of a well-behaved
   * peer's message exceeds the frame limit, so a larger claim is refused before allocation; subclasses whose
   * messages are exactly one frame check tighter.
   */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes > maxFrameSize) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "message declares " + numBytes
          + " bytes, more than " + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxFrameSize + " bytes)");
    }
  }

  /** Sizes are enforced per frame; see {@link #checkReadBytesAvailable}. */
  public final void resetMessageSizeAndConsumedBytes(long newSize) {
    // Declared without @Override: libthrift added this abstract method in 0.25 and 0.17 lacks it.
  }

  /** Writes a 4-byte big-endian length into {@code buf} at {@code offset}. */
  protected static void putLength(byte[] buf, int offset, int length) {
    buf[offset] = (byte) (length >>> 24);
    buf[offset + 1] = (byte) (length >>> 16);
    buf[offset + 2] = (byte) (length >>> 8);
    buf[offset + 3] = (byte) length;
  }
}
