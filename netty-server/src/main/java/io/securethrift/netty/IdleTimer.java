package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes an authenticated connection that has neither had a frame taken nor a call answered for
 * {@code securethrift.server.idle.timeout}; a call under way is not idleness. {@link FrameCodec} touches it for
 * each. Only a time is noted per touch: the one timer re-arms itself for what remains when it fires, rather than being
 * cancelled and scheduled again on every call. Not a handler, so it adds nothing to a call's path through the
 * pipeline.
 */
final class IdleTimer implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  private final Channel channel;
  /** Zero when connections are never closed for idleness. */
  private final long timeoutNanos;
  /** Whether a call runs. */
  private final BooleanSupplier working;
  private ScheduledFuture<?> check;
  private long lastActivityNanos;

  IdleTimer(Channel channel, Duration timeout, BooleanSupplier working) {
    this.channel = channel;
    this.timeoutNanos = timeout.toNanos();
    this.working = working;
  }

  /** Restarts the idle clock; on the event loop. */
  void touch() {
    lastActivityNanos = System.nanoTime();
    if (check == null && timeoutNanos > 0) {
      schedule(timeoutNanos);
    }
  }

  private void schedule(long delayNanos) {
    check = channel.eventLoop().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
  }

  /** The timer fired. */
  @Override
  public void run() {
    if (!channel.isOpen()) {
      return;
    }
    long remaining = timeoutNanos - (System.nanoTime() - lastActivityNanos);
    boolean busy = working.getAsBoolean();
    if (busy || remaining > 0) {
      // A running call is not idleness; its reply restarts the clock.
      schedule(busy ? timeoutNanos : remaining);
      return;
    }
    LOG.debug("closing idle connection with {} ({})", channel.remoteAddress(),
        ConfigProperty.SERVER_IDLE_TIMEOUT.key());
    channel.close();
  }

  /** The connection closed. */
  void stop() {
    if (check != null) {
      check.cancel(false);
    }
  }
}
