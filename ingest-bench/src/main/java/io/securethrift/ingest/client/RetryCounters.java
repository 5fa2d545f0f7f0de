package io.securethrift.ingest.client;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the ingest client's retries cost so far: calls retried, connections re-opened after a failure, and the time
 * lost, from a call's first failure to its eventual success or final failure (failed tries and backoff). Thread-safe;
 * read it with {@link #snapshot()}.
 */
public final class RetryCounters {
  private final LongAdder retries = new LongAdder();
  private final LongAdder reconnects = new LongAdder();
  private final LongAdder nanosLost = new LongAdder();

  void retried() {
    retries.increment();
  }

  void reconnected() {
    reconnects.increment();
  }

  void lost(long nanos) {
    nanosLost.add(nanos);
  }

  public Snapshot snapshot() {
    return new Snapshot(retries.sum(), reconnects.sum(), nanosLost.sum());
  }

  /**
   * The counters at one moment.
   *
   * @param retries tries after the first, over all calls
   * @param reconnects connections opened to replace one that failed
   * @param nanosLost time spent between calls' first failures and their outcome
   */
  public record Snapshot(long retries, long reconnects, long nanosLost) {
    /** What happened between {@code earlier} and this snapshot. */
    public Snapshot minus(Snapshot earlier) {
      return new Snapshot(retries - earlier.retries, reconnects - earlier.reconnects, nanosLost - earlier.nanosLost);
    }
  }
}
