package io.securethrift.core;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Closes a socket whose handshake has not finished by a deadline. A socket read timeout alone would restart with every
 * byte, so a peer trickling one byte at a time could hold a thread for ever; closing the socket unblocks the thread
 * wherever it waits.
 */
final class HandshakeDeadline implements AutoCloseable {
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private final AtomicBoolean expired = new AtomicBoolean();
  private final ScheduledFuture<?> task;

  private HandshakeDeadline(Socket socket, Duration timeout) {
    this.task = TIMER.schedule(() -> expire(socket), timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  static HandshakeDeadline arm(Socket socket, Duration timeout) {
    return new HandshakeDeadline(socket, timeout);
  }

  private void expire(Socket socket) {
    expired.set(true);
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is how the deadline takes effect; a failure to close leaves nothing else to do.
    }
  }

  /** Whether the deadline passed and the socket was closed. */
  boolean expired() {
    return expired.get();
  }

  /** Disarms the deadline once the handshake is done. */
  @Override
  public void close() {
    task.cancel(false);
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "securethrift-handshake-deadline");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }
}
