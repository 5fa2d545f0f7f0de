package io.securethrift.netty;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.transport.SecuredTransport;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TTransportException;

/**
 * Finds where the first Thrift message ends in the unwrapped bytes of a SASL connection, which carry no framing of
 * their own (a token may hold part of a message or several): the bytes are parsed with the server's protocol and
 * skipped, through {@link SecuredTransport#protocol}, so every count a message declares costs at least a byte per
 * element and a length beyond the bytes received means "not yet" rather than an allocation. Runs on the event loop;
 * the worker later reads the message again with the real processor.
 */
final class MessageScanner extends SecuredTransport {
  /** Thrown when the bytes so far end inside a message. */
  static final class Incomplete extends TTransportException {
    private static final long serialVersionUID = 1L;
    /** How many bytes the buffer must hold before the message can possibly be whole. */
    private final long needed;

    Incomplete(long needed) {
      super(TTransportException.END_OF_FILE, "message incomplete");
      this.needed = needed;
    }
  }

  private final PeerIdentity identity;
  private final int maxMessageSize;
  private final TConfiguration configuration;
  private byte[] bytes;
  private int position;
  private int limit;
  /**
   * The buffer length below which the last incomplete message cannot be whole yet: scanning again sooner would only
   * repeat the work, which for a large message spread over many tokens would cost time quadratic in its length.
   */
  private long needed;

  MessageScanner(PeerIdentity identity, int maxMessageSize) {
    this.identity = identity;
    this.maxMessageSize = maxMessageSize;
    this.configuration = new TConfiguration(maxMessageSize, maxMessageSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
  }

  /**
   * The length of the first whole message in {@code buffer[0, length)}, or -1 if it is not all there yet.
   *
   * @throws TException if the bytes are not a message of this protocol, or declare one larger than the frame limit
   */
  int firstMessage(TProtocolFactory factory, byte[] buffer, int length) throws TException {
    if (length < needed) {
      return -1;
    }
    bytes = buffer;
    position = 0;
    limit = length;
    TProtocol protocol = protocol(factory);
    try {
      protocol.readMessageBegin();
      TProtocolUtil.skip(protocol, TType.STRUCT);
      protocol.readMessageEnd();
      needed = 0;
      return position;
    } catch (Incomplete e) {
      needed = e.needed;
      if (length >= maxMessageSize) {
        throw new TTransportException(TTransportException.CORRUPTED_DATA, "message is larger than "
            + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxMessageSize + " bytes)");
      }
      return -1;
    } finally {
      bytes = null;
    }
  }

  @Override
  public PeerIdentity peerIdentity() {
    return identity;
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public void open() {
    // Reads memory only.
  }

  @Override
  public void close() {
    // Reads memory only.
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    if (position == limit) {
      throw new Incomplete(limit + 1L);
    }
    int n = Math.min(len, limit - position);
    System.arraycopy(bytes, position, buf, off, n);
    position += n;
    return n;
  }

  @Override
  public void write(byte[] buf, int off, int len) {
    throw new UnsupportedOperationException("the scanner only reads");
  }

  @Override
  public byte[] getBuffer() {
    return bytes;
  }

  @Override
  public int getBufferPosition() {
    return position;
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return limit - position;
  }

  @Override
  public void consumeBuffer(int len) {
    position += len;
  }

  @Override
  public TConfiguration getConfiguration() {
    return configuration;
  }

  @Override
  public void updateKnownMessageSize(long size) {
    // Bounded by checkReadBytesAvailable.
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes < 0) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "message declares a negative length ("
          + numBytes + ")");
    }
    if (numBytes > maxMessageSize) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "message declares " + numBytes
          + " bytes, more than " + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxMessageSize + " bytes)");
    }
    if (numBytes > limit - position) {
      throw new Incomplete(position + numBytes);
    }
  }

  /** Declared without @Override: libthrift added this abstract method in 0.25 and 0.17 lacks it. */
  public void resetMessageSizeAndConsumedBytes(long newSize) {
    // Bounded by checkReadBytesAvailable.
  }
}
