package io.securethrift.core.internal;

import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Reads length-prefixed frames (4-byte big-endian length, then payload) without trusting the length: it is checked
 * against a limit before anything is allocated, and the buffer grows only as bytes actually arrive, so a peer that
 * declares a large frame and sends nothing costs at most the first 64 KiB, and one that stops part way at most four
 * times what it sent. Each frame gets its own array, never reused: Thrift protocols hand out {@code ByteBuffer}s that
 * wrap the transport's buffer, and a service may keep them. Not thread-safe.
 *
 * <p>Not API: {@code io.securethrift.core.internal} is shared between securethrift's own modules (the SASL module's
 * transport is one) and may change in any release.
 */
public final class FrameReader {
  /** First allocation for a frame; quadruples as the payload arrives. */
  private static final int INITIAL_CAPACITY = 64 * 1024;
  /**
   * How much a full buffer grows. Four rather than two: a 1 MiB frame is copied through 64 and 256 KiB (a third of
   * its size) instead of 64, 128, 256 and 512 KiB (almost all of it), and skips the 512 KiB array, which a G1 heap
   * with 1 MiB regions (up to 2 GiB) allocates as a humongous object in the old generation.
   */
  private static final int GROWTH = 4;

  private final int maxLength;
  private final String limitKey;
  private final byte[] header = new byte[4];
  private static final byte[] EMPTY = new byte[0];
  private byte[] buffer = EMPTY;

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
      throw new OverLimit("frame header declares " + length + " bytes, more than " + limitKey + " (" + maxLength
          + " bytes); raise the limit if the peer really sends messages this large");
    }
    return length;
  }

  /**
   * Reads a payload of {@code length} bytes (already validated) into a new array of exactly that length, also
   * available from {@link #buffer()} until the next call.
   */
  public byte[] readPayload(TTransport in, int length) throws TTransportException {
    buffer = new byte[Math.min(length, INITIAL_CAPACITY)];
    int filled = 0;
    while (filled < length) {
      if (filled == buffer.length) {
        grow(length);
      }
      filled += readFully(in, buffer, filled, buffer.length - filled, filled, length);
    }
    return buffer;
  }

  /** Reads a whole frame and returns its length; the payload is in {@link #buffer()}. */
  public int readFrame(TTransport in) throws TTransportException {
    int length = readLength(in);
    readPayload(in, length);
    return length;
  }

  /** Lets go of the last payload, which {@link #buffer()} no longer returns. */
  public void release() {
    buffer = EMPTY;
  }

  /** The array holding the last payload read, exactly as long as it. */
  public byte[] buffer() {
    return buffer;
  }

  private void grow(int length) {
    byte[] bigger = new byte[(int) Math.min((long) GROWTH * buffer.length, length)];
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

  /** A header declared more than the limit; its own type so a server's audit can name the cause over-limit. */
  public static final class OverLimit extends TTransportException {
    private static final long serialVersionUID = 1L;

    OverLimit(String message) {
      super(TTransportException.CORRUPTED_DATA, message);
    }
  }
}
