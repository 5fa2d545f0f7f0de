package io.securethrift.netty;

import java.util.Arrays;
import org.apache.thrift.transport.TTransportException;

/**
 * The stream under one call's framed transport: reads the frame the event loop received (header included), collects
 * what the processor writes. Closing it (a transport that refused the peer's message does) marks the connection for
 * closing. Used by one worker thread at a time.
 */
final class MemoryStream extends InMemoryTransport {
  private final byte[] in;
  private int position;
  private byte[] out = new byte[256];
  private int written;
  private boolean closed;

  MemoryStream(byte[] in) {
    this.in = in;
  }

  /** What was written, framed as the transport above wrote it. */
  byte[] written() {
    return Arrays.copyOf(out, written);
  }

  boolean closed() {
    return closed;
  }

  @Override
  public boolean isOpen() {
    return !closed;
  }

  @Override
  public void open() {
    // Open from the start: the connection it stands for is.
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    if (position == in.length) {
      // Never reached by a well-bounded framed transport: it reads exactly the frame it was given.
      throw new TTransportException(TTransportException.END_OF_FILE, "read past the received frame");
    }
    int n = Math.min(len, in.length - position);
    System.arraycopy(in, position, buf, off, n);
    position += n;
    return n;
  }

  @Override
  public void write(byte[] buf, int off, int len) {
    if (written + len > out.length) {
      out = Arrays.copyOf(out, Math.max(2 * out.length, written + len));
    }
    System.arraycopy(buf, off, out, written, len);
    written += len;
  }

  @Override
  public void flush() {
    // The worker takes what was written once the call returns.
  }
}
