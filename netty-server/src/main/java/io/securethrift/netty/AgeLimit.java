package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.internal.ConnectionEnd;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * An authenticated connection's end ({@link ConnectionEnd}: its maximum age, counted from its accept, or its client's
 * Kerberos ticket end, whichever comes first). One timer marks the end reached and has {@link FrameCodec} look; the
 * codec closes the connection at its next point without a call in progress: no call running or being answered, and
 * no byte of a next one received (bytes of a call already received are a call in progress, served first). Not a
 * handler; everything runs on the event loop.
 */
final class AgeLimit implements Runnable {
  private final Channel channel;
  private final PeerIdentity identity;
  private final long acceptedNanos;
  private final ConnectionEnd end;
  private final HandshakeAudit audit;
  /** The codec's look at the connection: closes it now if no call is in progress. */
  private final Runnable look;
  private final ScheduledFuture<?> timer;
  private boolean reached;

  private AgeLimit(Channel channel, PeerIdentity identity, long acceptedNanos, ConnectionEnd end, HandshakeAudit audit,
      Runnable look) {
    this.channel = channel;
    this.identity = identity;
    this.acceptedNanos = acceptedNanos;
    this.end = end;
    this.audit = audit;
    this.look = look;
    this.timer = channel.eventLoop().schedule(this, Math.max(0, end.remainingNanos(System.nanoTime())),
        TimeUnit.NANOSECONDS);
  }

  /**
   * The end of a connection accepted at {@code acceptedNanos}; null when it has none ({@code maxAge} zero, no ticket
   * end).
   */
  static AgeLimit start(Channel channel, PeerIdentity identity, long acceptedNanos, Duration maxAge,
      HandshakeAudit audit, Runnable look) {
    ConnectionEnd end = ConnectionEnd.of(identity, acceptedNanos, maxAge);
    return end == null ? null : new AgeLimit(channel, identity, acceptedNanos, end, audit, look);
  }

  /** The end was reached. */
  @Override
  public void run() {
    reached = true;
    if (channel.isOpen()) {
      look.run();
    }
  }

  /** Whether the connection has reached its end and is to close at its next point without a call in progress. */
  boolean reached() {
    return reached;
  }

  /** The codec closes the connection at its end: audited with its cause and the age it reached. */
  void closing() {
    audit.closed(identity, end.cause(), Duration.ofNanos(System.nanoTime() - acceptedNanos));
  }

  /** The connection closed. */
  void stop() {
    timer.cancel(false);
  }
}
