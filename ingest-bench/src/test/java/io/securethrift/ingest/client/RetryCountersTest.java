package io.securethrift.ingest.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The fault runs' cost columns: counters that add up, and a difference of snapshots that is what came between. */
class RetryCountersTest {
  @Test
  void countsAddUpAndSnapshotsSubtract() {
    RetryCounters counters = new RetryCounters();
    assertEquals(new RetryCounters.Snapshot(0, 0, 0), counters.snapshot());
    counters.retried();
    counters.retried();
    counters.reconnected();
    counters.lost(1_000);
    RetryCounters.Snapshot first = counters.snapshot();
    assertEquals(new RetryCounters.Snapshot(2, 1, 1_000), first);
    counters.retried();
    counters.lost(500);
    RetryCounters.Snapshot second = counters.snapshot();
    assertEquals(new RetryCounters.Snapshot(1, 0, 500), second.minus(first));
    assertEquals(new RetryCounters.Snapshot(0, 0, 0), second.minus(second));
  }

  @Test
  void concurrentWritersLoseNoCount() throws InterruptedException {
    RetryCounters counters = new RetryCounters();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          counters.retried();
          counters.reconnected();
          counters.lost(2);
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(new RetryCounters.Snapshot(40_000, 40_000, 80_000), counters.snapshot());
  }
}
