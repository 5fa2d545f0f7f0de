package io.securethrift.core.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition the code under test offers no signal for (a ticket's expiry, a clock reading). */
public final class Await {
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private Await() {}

  /** Returns once {@code condition} holds, checking it every 20 ms; fails naming {@code what} after the timeout. */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(what + " did not happen within " + timeout);
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }
}
