package io.securethrift.bench.server;

import java.util.Arrays;

/**
 * Latencies of one measurement in nanoseconds, kept whole (a run has at most a few hundred thousand) for exact
 * percentiles. Each client thread adds to its own; {@link #addAll} merges them into a shared one.
 */
final class Latencies {
  private long[] values = new long[256];
  private int size;

  void add(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  synchronized void addAll(Latencies other) {
    for (int i = 0; i < other.size; i++) {
      add(other.values[i]);
    }
  }

  synchronized int count() {
    return size;
  }

  /** The {@code p}th percentile (nearest rank) in milliseconds; NaN when nothing was measured. */
  synchronized double percentileMs(double p) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100 * size);
    return sorted[Math.max(0, Math.min(size, rank) - 1)] / 1e6;
  }
}
