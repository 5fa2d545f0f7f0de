package io.securethrift.harness;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One measured iteration, a raw row: which group (for example a server model) and variant (a security mode) it
 * belongs to, its round, and its named values in column order. Rounds 0 and below are warm-ups ({@link WarmUp}):
 * kept in the raw data, never analysed.
 */
public record Measurement(String group, String variant, int round, Map<String, Number> values) {

  public Measurement {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** A value as a double; NaN when the row has no such column. */
  public double value(String key) {
    Number n = values.get(key);
    return n == null ? Double.NaN : n.doubleValue();
  }

  public boolean warmUp() {
    return round <= 0;
  }

  /** The median of {@code column} over {@code rows}; NaN when there are none or one lacks it (a side not sampled). */
  public static double median(List<Measurement> rows, ToDoubleFunction<Measurement> column) {
    return median(rows.stream().mapToDouble(column).toArray());
  }

  /** The median of {@code values}; NaN when there are none or one is NaN. */
  public static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    if (v.length == 0 || Arrays.stream(v).anyMatch(Double::isNaN)) {
      return Double.NaN;
    }
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
