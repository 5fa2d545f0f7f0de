package io.securethrift.core.spi;

import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Reads length-prefixed frames (4-byte big-endian length, then payload) without trusting the length: it is checked
 * against a limit before anything is allocated, and the buffer grows only as bytes actually arrive, so a peer that
 * declares a large frame and sends nothing costs nothing. The buffer is reused from frame to frame. Not thread-safe.
 */
public final class FrameReader {
  /** First allocation for a frame; doubles as the payload arrives. */
  private static final int INITIAL_CAPACITY = 4096;

  private final int maxLength;
  private final String limitKey;
  private final byte[] header = new byte[4];
  private byte[] buffer = new byte[0];

  /**
   * @param maxLength largest payload accepted
   * @param limitKey the configuration key of that limit, named in the error so the operator knows what to raise
   */
  public FrameReader(int maxLength, String limitKey) {
    this.maxLength = maxLength;
    this.limitKey = limitKey;
  }

  /** Reads the 4-byte header and returns the validated payload length. */
  public int readLength(TTransport in) throws TTransportException {
    readFully(in, header, 0, 4, 0, 4);
    return checkLength(((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8)
        | (header[3] & 0xff));
  }

  /** Validates a length read from a header (some headers carry a status byte first). */
  public int checkLength(int length) throws TTransportException {
    if (length < 0) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA,
          "frame header declares a negative length (" + length + "); the peer is not speaking this protocol");
    }
    if (length > maxLength) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "frame header declares " + length
          + " bytes, more than " + limitKey + " (" + maxLength + " bytes); raise the limit if the peer really sends"
          + " messages this large");
    }
    return length;
  }

  /**
   * Reads a payload of {@code length} bytes (already validated) into the reused buffer; the bytes are at
   * {@code buffer()[0..length)} until the next call.
   */
  public byte[] readPayload(TTransport in, int length) throws TTransportException {
    int filled = 0;
    while (filled < length) {
      if (filled == buffer.length) {
        grow(length);
      }
      int chunk = Math.min(buffer.length, length);
      filled += readFully(in, buffer, filled, chunk - filled, filled, length);
    }
    return buffer;
  }

  /** Reads a whole frame and returns its length; the payload is in {@link #buffer()}. */
  public int readFrame(TTransport in) throws TTransportException {
    int length = readLength(in);
    readPayload(in, length);
    return length;
  }

  /** The buffer holding the last payload read. */
  public byte[] buffer() {
    return buffer;
  }

  private void grow(int length) {
    long capacity = buffer.length == 0 ? INITIAL_CAPACITY : 2L * buffer.length;
    byte[] bigger = new byte[(int) Math.min(capacity, length)];
    System.arraycopy(buffer, 0, bigger, 0, buffer.length);
    buffer = bigger;
  }

  private static int readFully(TTransport in, byte[] into, int offset, int count, int before, int expected)
      throws TTransportException {
    int done = 0;
    while (done < count) {
      int n = in.read(into, offset + done, count - done);
      if (n <= 0) {
        throw new TTransportException(TTransportException.END_OF_FILE, "connection closed after " + (before + done)
            + " of " + expected + " bytes of a frame");
      }
      done += n;
    }
    return done;
  }
}
