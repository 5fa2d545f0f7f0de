package io.securethrift.zookeeper.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Per-mode statistics of iteration times, printed in the layout of Accumulo's published security benchmark table:
 * median, standard deviation, minimum, maximum and the change of the median versus the first (baseline) mode.
 */
final class LatencyTable {
  private final Map<String, double[]> samples = new LinkedHashMap<>();

  /** Adds the samples of one mode; the first mode added is the baseline. */
  void add(String mode, List<Double> millis) {
    samples.put(mode, millis.stream().mapToDouble(Double::doubleValue).toArray());
  }

  String render(String title) {
    StringBuilder out = new StringBuilder(title).append("\n\n");
    out.append("| mode | median ms | stddev | min | max | % vs none |\n|---|---|---|---|---|---|\n");
    double baseline = median(samples.values().iterator().next());
    samples.forEach((mode, v) -> out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %+.2f |%n",
        mode, median(v), stddev(v), Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0),
        (median(v) / baseline - 1) * 100)));
    return out.toString();
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Sample standard deviation (n - 1), as spreadsheet tools report it; 0 for a single sample. */
  static double stddev(double[] values) {
    if (values.length < 2) {
      return 0;
    }
    double mean = Arrays.stream(values).average().orElse(0);
    return Math.sqrt(Arrays.stream(values).map(x -> (x - mean) * (x - mean)).sum() / (values.length - 1));
  }
}
