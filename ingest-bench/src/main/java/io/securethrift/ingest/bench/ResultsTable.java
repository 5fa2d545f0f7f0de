package io.securethrift.ingest.bench;

import io.securethrift.harness.Interval;
import io.securethrift.harness.ResultsDocs;
import io.securethrift.harness.ResultsFile;
import java.util.Locale;
import java.util.Map;

/** One ingest-bench run as a Markdown table, read back from its ingest-results.json (for {@code ingest-bench docs}). */
public final class ResultsTable {
  /** The tool name ingest-bench's result files carry. */
  public static final String TOOL = "ingest-bench";
  /**
   * {@code ingest-bench docs}: the runs' agreement (issue #13's test of repeated default runs: CPU per entry within
   * +/-3 points, wall within +/-5) and the last run's table, written into docs/benchmarks.md.
   */
  public static final ResultsDocs DOCS = new ResultsDocs(TOOL, ResultsTable::markdown,
      runs -> Map.of("cpu", 3.0, "wall", 5.0), true);

  private ResultsTable() {}

  /** The run's line (commit, start, load, length, why it stopped) and one row per server and mode. */
  public static String markdown(ResultsFile run) {
    Map<String, Object> info = run.info();
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
        "Commit %s, %s, %s cores, started %s, load average %s → %s, %s s in all; stopped: %s.%n%n",
        info.get("commit"), info.get("jdk"), number(info.get("cores"), "%.0f"), info.get("started"),
        number(info.get("loadAverageStart"), "%.1f"), number(info.get("loadAverageEnd"), "%.1f"),
        number(info.get("wallSeconds"), "%.0f"), run.stopped()));
    s.append("| server | mode | rounds | wall overhead [95 %] | CPU/entry overhead [95 %] | client µs/entry"
        + " | server µs/entry | client / server GC ms | wire MB |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Map<String, Object> m : run.summary()) {
      boolean baseline = run.baseline().equals(m.get("mode"));
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s |%n", m.get("server"),
          m.get("mode"), number(m.get("rounds"), "%.0f"), baseline ? "baseline" : overhead(m, "wall"),
          baseline ? "baseline" : overhead(m, "cpu"), number(m.get("client_cpu_us_per_entry"), "%.2f"),
          number(m.get("server_cpu_us_per_entry"), "%.2f"), number(m.get("client_gc_ms"), "%.0f"),
          number(m.get("server_gc_ms"), "%.0f"), number(m.get("client_wire_mb"), "%.1f")));
    }
    return s.toString();
  }

  private static String overhead(Map<String, Object> m, String metric) {
    return new Interval(value(m.get(metric + "_overhead_pct")), value(m.get(metric + "_overhead_low")),
        value(m.get(metric + "_overhead_high"))).format();
  }

  private static double value(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** A value to {@code format}; n/a for one the file leaves out (JSON null: NaN when written, a side not sampled). */
  private static String number(Object value, String format) {
    if (value == null) {
      return "n/a";
    }
    return value instanceof Number n ? String.format(Locale.ROOT, format, n.doubleValue()) : String.valueOf(value);
  }
}
