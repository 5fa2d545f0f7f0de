package io.securethrift.netty;

import io.securethrift.core.internal.ChunkedBytes;
import java.util.List;
import org.apache.thrift.transport.TTransportException;

/**
 * The stream under one call's framed transport: reads the frame the event loop received (header included), collects
 * what the processor writes. Closing it (a transport that refused the peer's message does) marks the connection for
 * closing. Used by one worker thread at a time.
 */
final class MemoryStream extends InMemoryTransport {
  private final byte[] in;
  private int position;
  private final ChunkedBytes out = new ChunkedBytes(256);
  private boolean closed;

  MemoryStream(byte[] in) {
    this.in = in;
  }

  /** What was written, framed as the transport above wrote it, as one array. */
  byte[] written() {
    return out.toArray();
  }

  /**
   * What was written, as arrays of at most {@link ChunkedBytes#CHUNK} bytes, to be sent one after the other: a reply
   * waiting for its peer is held in pieces no collector treats as humongous. Nothing may be written after.
   */
  List<byte[]> writtenChunks() {
    return out.size() == 0 ? List.of() : out.toArrays();
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
    out.write(buf, off, len);
  }

  @Override
  public void flush() {
    // The worker takes what was written once the call returns.
  }
}
