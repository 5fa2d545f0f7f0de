package io.securethrift.harness;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

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
}
