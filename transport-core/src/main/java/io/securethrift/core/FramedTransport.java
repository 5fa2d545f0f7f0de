package io.securethrift.core;

import io.securethrift.core.spi.FrameReader;
import java.util.Arrays;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thrift's framed protocol (4-byte length, then one message), wire-compatible with libthrift's
 * {@code TFramedTransport}, but the length is checked against the configured limit before any allocation and the
 * read buffer grows only as bytes arrive. A message is written with one write and one flush, so a TLS stream below
 * sends it in full-size records.
 */
final class FramedTransport extends SecuredTransport {
  private static final Logger LOG = LoggerFactory.getLogger(FramedTransport.class);

  private final TTransport stream;
  private final PeerIdentity identity;
  private final int maxFrameSize;
  private final FrameReader reader;
  private final TConfiguration configuration;
  private byte[] writeBuffer = new byte[1024];
  private int writeLength = 4;
  private int readLength;
  private int readPosition;

  FramedTransport(TTransport stream, PeerIdentity identity, Limits limits) {
    this.stream = stream;
    this.identity = identity;
    this.maxFrameSize = limits.maxFrameSize();
    this.reader = new FrameReader(maxFrameSize, ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
    this.configuration = new TConfiguration(maxFrameSize, maxFrameSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
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
      throw new TTransportException(TTransportException.NOT_OPEN, "a framed transport opens through its factory");
    }
  }

  @Override
  public void close() {
    stream.close();
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    if (readPosition == readLength) {
      nextFrame();
    }
    int n = Math.min(len, readLength - readPosition);
    System.arraycopy(reader.buffer(), readPosition, buf, off, n);
    readPosition += n;
    return n;
  }

  private void nextFrame() throws TTransportException {
    do {
      try {
        readLength = reader.readFrame(stream);
      } catch (TTransportException e) {
        if (e.getType() == TTransportException.CORRUPTED_DATA) {
          LOG.warn("closing connection with {}: {}", identity.remoteAddress(), e.getMessage());
          close();
        }
        throw e;
      }
      readPosition = 0;
    } while (readLength == 0);
  }

  @Override
  public byte[] getBuffer() {
    return reader.buffer();
  }

  @Override
  public int getBufferPosition() {
    return readPosition;
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return readLength - readPosition;
  }

  @Override
  public void consumeBuffer(int len) {
    readPosition += len;
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    int needed = writeLength + len;
    if (needed - 4 > maxFrameSize || needed < 0) {
      writeLength = 4;
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "outgoing message is larger than "
          + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxFrameSize + " bytes); the peer would refuse it");
    }
    if (needed > writeBuffer.length) {
      writeBuffer = Arrays.copyOf(writeBuffer, (int) Math.min(Math.max(2L * writeBuffer.length, needed),
          maxFrameSize + 4L));
    }
    System.arraycopy(buf, off, writeBuffer, writeLength, len);
    writeLength = needed;
  }

  @Override
  public void flush() throws TTransportException {
    int payload = writeLength - 4;
    writeBuffer[0] = (byte) (payload >>> 24);
    writeBuffer[1] = (byte) (payload >>> 16);
    writeBuffer[2] = (byte) (payload >>> 8);
    writeBuffer[3] = (byte) payload;
    writeLength = 4;
    stream.write(writeBuffer, 0, payload + 4);
    stream.flush();
  }

  @Override
  public TConfiguration getConfiguration() {
    return configuration;
  }

  @Override
  public void updateKnownMessageSize(long size) {
    // The frame length already bounds every message; nothing more to track.
  }

  /**
   * Protocols call this before allocating a string or container of {@code numBytes}; a message cannot hold more than
   * what is left of its frame, so a lying length inside a message is refused before allocation.
   */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    int remaining = readLength - readPosition;
    if (remaining > 0 && numBytes > remaining) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "message declares " + numBytes
          + " bytes but only " + remaining + " remain in its frame");
    }
  }

  @Override
  public void resetMessageSizeAndConsumedBytes(long newSize) {
    // Sizes are enforced per frame; see checkReadBytesAvailable.
  }
}
