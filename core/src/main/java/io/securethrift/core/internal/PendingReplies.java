package io.securethrift.core.internal;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.HandshakeAudit;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replies of one server that are being written and not yet taken by their peers, bounded in bytes across all
 * connections by {@code securethrift.server.pending.replies.max}: past it, the connection whose reply has waited
 * longest is closed (its own possibly), with a warning through the audit's window. Without a bound, many peers that
 * send calls and never read the replies make the server hold a reply each, up to the frame limit per connection.
 * Both server models count here: the non-blocking server the replies its channels could not write at once, the
 * thread-pool server every large reply while its worker writes it. Thread-safe.
 *
 * <p>Not API: {@code io.securethrift.core.internal} is shared between securethrift's own modules and may change in
 * any release.
 */
public final class PendingReplies {
  private final long max;
  private final HandshakeAudit audit;
  /** Replies counted and not yet written, oldest first. */
  private final ConcurrentLinkedQueue<Reply> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicLong bytes = new AtomicLong();

  public PendingReplies(long max, HandshakeAudit audit) {
    this.max = max;
    this.audit = audit;
  }

  /**
   * Counts a reply of {@code size} bytes to {@code peer} until the returned reply is closed (written, or its
   * connection gone); while the replies counted pass the bound, closes the oldest's connection with {@code close}.
   */
  public Reply add(SocketAddress peer, Runnable close, long size) {
    Reply reply = new Reply(peer, close, size);
    waiting.add(reply);
    long total = bytes.addAndGet(size);
    while (total > max) {
      Reply oldest = waiting.poll();
      if (oldest == null) {
        break;
      }
      total = bytes.addAndGet(-oldest.size);
      audit.closing(oldest.peer, HandshakeAudit.Refusal.REPLY, "its reply of " + oldest.size + " bytes waited"
          + " longest while the replies its peers had not taken passed "
          + ConfigProperty.SERVER_PENDING_REPLIES_MAX.key() + " (" + max + " bytes)");
      oldest.close.run();
    }
    return reply;
  }

  /** Bytes of the replies counted now. */
  public long bytes() {
    return bytes.get();
  }

  /** One counted reply; closing it stops counting it. */
  public final class Reply implements AutoCloseable {
    private final SocketAddress peer;
    private final Runnable close;
    private final long size;

    private Reply(SocketAddress peer, Runnable close, long size) {
      this.peer = peer;
      this.close = close;
      this.size = size;
    }

    @Override
    public void close() {
      if (waiting.remove(this)) {
        bytes.addAndGet(-size);
      }
    }
  }
}
