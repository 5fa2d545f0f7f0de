package io.securethrift.ingest.client;

import java.time.Duration;

/**
 * One ingest run's workload and batch-writer settings.
 *
 * @param entries how many entries to write (rounded up to the generator's flush boundary); ignored when
 *     {@code duration} is set
 * @param flushInterval entries between flushes; each flush is a round trip the security layer is paid on
 * @param batchMemory the batch writer's memory limit in bytes
 * @param maxLatency the batch writer's maximum latency
 * @param writeThreads the batch writer's sending threads (and connections)
 * @param seed the generator's seed, so every mode writes the same data
 * @param duration for a time-based run (Accumulo's continuous ingest), how long to write, to the next flush; zero for
 *     a run of {@code entries}
 */
public record IngestOptions(long entries, int flushInterval, long batchMemory, Duration maxLatency, int writeThreads,
    long seed, Duration duration) {

  /** A run of {@code entries} entries. */
  public IngestOptions(long entries, int flushInterval, long batchMemory, Duration maxLatency, int writeThreads,
      long seed) {
    this(entries, flushInterval, batchMemory, maxLatency, writeThreads, seed, Duration.ZERO);
  }

  public boolean timeBased() {
    return !duration.isZero();
  }
}
