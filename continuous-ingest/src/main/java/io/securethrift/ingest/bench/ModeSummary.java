package io.securethrift.ingest.bench;

import io.securethrift.ingest.client.IngestResult;
import java.util.Arrays;
import java.util.List;

/**
 * One security level's iterations reduced to the columns of Accumulo's published table (median, stddev, min, max of
 * elapsed time) plus throughput and CPU. Percentages against the baseline and the previous level are computed by the
 * report, which knows the order.
 */
record ModeSummary(String mode, int iterations, double medianMs, double stddevMs, double minMs, double maxMs,
    double entriesPerSecond, double megabytesPerSecond, double clientCpuSeconds, double serverCpuSeconds) {

  static ModeSummary of(String mode, List<IngestResult> results) {
    double[] ms = results.stream().mapToDouble(r -> r.elapsedNanos() / 1e6).sorted().toArray();
    double median = median(ms);
    double mean = Arrays.stream(ms).average().orElse(0);
    double variance = ms.length < 2 ? 0
        : Arrays.stream(ms).map(x -> (x - mean) * (x - mean)).sum() / (ms.length - 1);
    double seconds = median / 1e3;
    double entries = results.get(0).entries();
    double bytes = results.get(0).bytes();
    return new ModeSummary(mode, ms.length, median, Math.sqrt(variance), ms[0], ms[ms.length - 1],
        entries / seconds, bytes / seconds / 1e6,
        median(results.stream().mapToDouble(r -> r.clientCpuNanos() / 1e9).sorted().toArray()),
        median(results.stream().mapToDouble(r -> r.serverCpuNanos() / 1e9).sorted().toArray()));
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Percent change of {@code value} against {@code base}. */
  static double percentChange(double value, double base) {
    return (value - base) / base * 100;
  }
}
