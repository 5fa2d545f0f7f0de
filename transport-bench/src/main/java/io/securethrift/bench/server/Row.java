package io.securethrift.bench.server;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of server-bench's results: a scenario, the mode and server it ran on, the load, and named figures in the
 * order they are printed.
 */
record Row(String scenario, String mode, String server, String load, Map<String, Double> metrics) {
  Row {
    metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
  }

  /** A figure of this row; NaN when the row does not have it. */
  double get(String metric) {
    return metrics.getOrDefault(metric, Double.NaN);
  }

  /** Builds a row's figures in order. */
  static final class Figures {
    private final Map<String, Double> metrics = new LinkedHashMap<>();

    Figures put(String name, double value) {
      metrics.put(name, value);
      return this;
    }

    Map<String, Double> map() {
      return metrics;
    }
  }
}
