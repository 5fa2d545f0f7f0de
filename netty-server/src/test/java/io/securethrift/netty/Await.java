package io.securethrift.netty;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition, polling, and fails with the time it waited. */
final class Await {
  private Await() {}

  static void until(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within " + timeout);
      }
      Thread.sleep(10);
    }
  }
}
