package io.securethrift.harness;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Two runs' overheads side by side: for every group, variant and metric both measured, each run's overhead with its
 * interval and the difference (B minus A, in points) with its own 95 % interval from resampling each run's rounds.
 * A difference whose interval leaves out zero is marked {@code REAL}; the others are within the runs' noise.
 */
public final class Compare {
  private static final long SEED = 20_170_901L;

  private Compare() {}

  /** The comparison as a table; {@code nameA} and {@code nameB} head the columns (file names, say). */
  public static String table(ResultsFile a, ResultsFile b, String nameA, String nameB) {
    StringBuilder out = new StringBuilder();
    out.append("A = ").append(nameA).append(describe(a)).append('\n');
    out.append("B = ").append(nameB).append(describe(b)).append('\n');
    out.append(String.format(Locale.ROOT, "%-12s %-16s %-6s %-26s %-26s %-24s %s%n", a.groupLabel(),
        a.variantLabel(), "metric", "A", "B", "B - A (points)", "verdict"));
    Map<String, Overhead> inB = new LinkedHashMap<>();
    b.overheads().forEach(o -> inB.put(key(o), o));
    for (Overhead x : a.overheads()) {
      Overhead y = inB.remove(key(x));
      if (y == null) {
        out.append(String.format(Locale.ROOT, "%-12s %-16s %-6s %-26s %-26s%n", x.group(), x.variant(), x.metric(),
            x.interval().format(), "(not in B)"));
        continue;
      }
      Interval d = Bootstrap.difference(x.ratios(), x.widening(), y.ratios(), y.widening(), SEED);
      out.append(String.format(Locale.ROOT, "%-12s %-16s %-6s %-26s %-26s %-24s %s%n", x.group(), x.variant(),
          x.metric(), x.interval().format(), y.interval().format(),
          String.format(Locale.ROOT, "%+.1f %s", d.estimate(), d.bounds()),
          !d.bounded() ? "too few rounds" : d.excludesZero() ? "REAL" : "within noise"));
    }
    for (Overhead y : inB.values()) {
      out.append(String.format(Locale.ROOT, "%-12s %-16s %-6s %-26s %-26s%n", y.group(), y.variant(), y.metric(),
          "(not in A)", y.interval().format()));
    }
    return out.toString();
  }

  private static String key(Overhead o) {
    return o.group() + "\u0000" + o.variant() + "\u0000" + o.metric();
  }

  private static String describe(ResultsFile r) {
    Object commit = r.info().get("commit");
    Object started = r.info().get("started");
    return String.format(Locale.ROOT, " (%s, commit %s, started %s, %s cores, load %s -> %s, stopped: %s)",
        r.tool(), commit, started, number(r.info().get("cores"), "%.0f"),
        number(r.info().get("loadAverageStart"), "%.2f"), number(r.info().get("loadAverageEnd"), "%.2f"), r.stopped());
  }

  private static String number(Object value, String format) {
    return value instanceof Number n ? String.format(Locale.ROOT, format, n.doubleValue()) : String.valueOf(value);
  }
}
