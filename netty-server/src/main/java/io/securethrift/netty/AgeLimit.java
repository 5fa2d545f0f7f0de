package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.audit.CloseCause;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * An authenticated connection's maximum age ({@code securethrift.server.connection.max.age}), counted from its
 * accept. One timer marks the age reached and has {@link FrameCodec} look; the codec closes the connection at its next
 * point without a call in progress: no call running or being answered, and no byte of a next one received (bytes of a
 * call already received are a call in progress, served first). Not a handler; everything runs on the event loop.
 */
final class AgeLimit implements Runnable {
  private final Channel channel;
  private final PeerIdentity identity;
  private final long acceptedNanos;
  private final HandshakeAudit audit;
  /** The codec's look at the connection: closes it now if no call is in progress. */
  private final Runnable look;
  private final ScheduledFuture<?> timer;
  private boolean reached;

  private AgeLimit(Channel channel, PeerIdentity identity, long acceptedNanos, Duration maxAge, HandshakeAudit audit,
      Runnable look) {
    this.channel = channel;
    this.identity = identity;
    this.acceptedNanos = acceptedNanos;
    this.audit = audit;
    this.look = look;
    long remaining = maxAge.toNanos() - (System.nanoTime() - acceptedNanos);
    this.timer = channel.eventLoop().schedule(this, Math.max(0, remaining), TimeUnit.NANOSECONDS);
  }

  /** The limit of a connection accepted at {@code acceptedNanos}; null when {@code maxAge} is zero (no limit). */
  static AgeLimit start(Channel channel, PeerIdentity identity, long acceptedNanos, Duration maxAge,
      HandshakeAudit audit, Runnable look) {
    return maxAge.isZero() ? null : new AgeLimit(channel, identity, acceptedNanos, maxAge, audit, look);
  }

  /** The age was reached. */
  @Override
  public void run() {
    reached = true;
    if (channel.isOpen()) {
      look.run();
    }
  }

  /** Whether the connection has reached its age and is to close at its next point without a call in progress. */
  boolean reached() {
    return reached;
  }

  /** The codec closes the connection for its age: audited, with the age it reached. */
  void closing() {
    audit.closed(identity, CloseCause.MAX_AGE, Duration.ofNanos(System.nanoTime() - acceptedNanos));
  }

  /** The connection closed. */
  void stop() {
    timer.cancel(false);
  }
}
