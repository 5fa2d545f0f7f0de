package io.securethrift.core.transport;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.internal.ChunkedBytes;
import io.securethrift.core.internal.FrameTransport;
import io.securethrift.core.internal.PendingReplies;
import io.securethrift.core.spi.LayerProvider.Role;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Thrift's framed protocol (4-byte length, then one message), wire-compatible with libthrift's
 * {@code TFramedTransport}, but the length is checked against the configured limit before any allocation and the
 * read buffer grows only as bytes arrive. A message is written in chunks of 64 KiB and one flush, so a TLS stream
 * below sends it in full-size records.
 */
final class FramedTransport extends FrameTransport {
  /** Written first in every message, and filled in with its length when it is sent. */
  private static final byte[] HEADER = new byte[4];
  /**
   * The size above which a server's reply counts in its pending replies while it is written; the workers bound the
   * smaller ones (16 MiB at the default 256 threads).
   */
  private static final int COUNTED_REPLY = 64 * 1024;
  private final ChunkedBytes out = new ChunkedBytes(1024);

  FramedTransport(TTransport stream, PeerIdentity identity, Limits limits, Role role) {
    super(stream, identity, limits, Framing.ONE_MESSAGE_PER_FRAME, role);
    out.write(HEADER, 0, 4);
  }

  @Override
  protected byte[] decode(byte[] payload, int length) {
    return payload;
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    if (out.size() - 4 + len > maxFrameSize()) {
      reset();
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "outgoing message is larger than "
          + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxFrameSize() + " bytes); the peer would refuse it");
    }
    out.write(buf, off, len);
  }

  /**
   * Sends the message, a chunk per write. On a server, a message over {@link #COUNTED_REPLY} counts in the server's
   * pending replies while it is written (see {@link SocketTransport#replying}): the thread-pool server's bound on the
   * replies its peers have not taken.
   */
  @Override
  public void flush() throws TTransportException {
    long payload = out.size() - 4;
    PendingReplies.Reply counted = payload > COUNTED_REPLY && stream() instanceof SocketTransport
        ? ((SocketTransport) stream()).replying(payload) : null;
    try {
      putLength(out.first(), 0, (int) payload);
      for (int i = 0; i < out.chunks(); i++) {
        stream().write(out.chunk(i), 0, out.length(i));
      }
      stream().flush();
    } finally {
      if (counted != null) {
        counted.close();
      }
      reset();
    }
  }

  private void reset() {
    out.clear();
    out.write(HEADER, 0, 4);
  }
}
