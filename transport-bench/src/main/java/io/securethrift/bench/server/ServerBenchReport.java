package io.securethrift.bench.server;

import io.securethrift.harness.Json;
import io.securethrift.harness.OverheadChart;
import io.securethrift.harness.ReportFiles;
import io.securethrift.harness.SvgBarChart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * server-bench's results: a Markdown table per scenario and the goals with their verdicts (printed, and pasted into
 * docs/benchmarks.md), CSV (one figure a line), JSON, and a self-contained HTML page with an SVG chart per scenario.
 */
public final class ServerBenchReport {
  /** The figure each scenario's chart shows. */
  private static final Map<String, String[]> CHARTED = Map.of(
      IdleConnections.SCENARIO, new String[] {"rss_kb_per_conn", "RSS per idle connection", "KB"},
      ClosedLoop.SCENARIO, new String[] {"calls_per_s", "Closed-loop echo calls", "calls/s"},
      PreAuthFlood.SCENARIO, new String[] {"p99_ms", "Legitimate clients' p99 beside the flood", "ms"},
      StalledReaders.SCENARIO, new String[] {"held_rise_mb", "What peers that never read make the server hold", "MB"},
      HandshakeRates.SCENARIO, new String[] {"handshakes_per_s", "TLS handshakes", "per second"});

  private final List<Row> rows;
  private final List<Goal> goals;
  private final List<String> notes;
  private final String settings;

  ServerBenchReport(List<Row> rows, List<Goal> goals, List<String> notes, String settings) {
    this.rows = List.copyOf(rows);
    this.goals = List.copyOf(goals);
    this.notes = List.copyOf(notes);
    this.settings = settings;
  }

  /** The rows of each scenario, in the order they ran. */
  private Map<String, List<Row>> byScenario() {
    Map<String, List<Row>> scenarios = new LinkedHashMap<>();
    for (String name : ServerBenchOptions.SCENARIOS) {
      List<Row> of = rows.stream().filter(r -> r.scenario().equals(name)).toList();
      if (!of.isEmpty()) {
        scenarios.put(name, of);
      }
    }
    return scenarios;
  }

  public int rowCount() {
    return rows.size();
  }

  /** Every scenario's table, then the goals. */
  public String table() {
    StringBuilder s = new StringBuilder(settings).append("\n\n");
    byScenario().forEach((scenario, of) -> {
      List<String> metrics = new ArrayList<>(of.get(0).metrics().keySet());
      s.append("| ").append(scenario).append(" | mode | server | load | ").append(String.join(" | ", metrics))
          .append(" |\n|---|---|---|---|").append("---|".repeat(metrics.size())).append('\n');
      for (Row r : of) {
        s.append("| | ").append(r.mode()).append(" | ").append(r.server()).append(" | ").append(r.load());
        for (String m : metrics) {
          s.append(" | ").append(number(r.get(m)));
        }
        s.append(" |\n");
      }
      s.append('\n');
    });
    s.append("| goal | measured | verdict |\n|---|---|---|\n");
    for (Goal g : goals) {
      s.append("| ").append(g.goal()).append(" | ").append(g.measured()).append(" | ").append(g.verdict())
          .append(" |\n");
    }
    for (String note : notes) {
      s.append("\nNote: ").append(note).append('\n');
    }
    return s.toString();
  }

  public String csv() {
    StringBuilder s = new StringBuilder("scenario,mode,server,load,metric,value\n");
    for (Row r : rows) {
      r.metrics().forEach((m, v) -> s.append(String.join(",", r.scenario(), r.mode(), r.server(), r.load(), m,
          number(v))).append('\n'));
    }
    return s.toString();
  }

  public String json() {
    List<Map<String, Object>> rowObjects = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> row = labels(r);
      row.put("metrics", new LinkedHashMap<>(r.metrics()));
      rowObjects.add(row);
    }
    List<Map<String, Object>> goalObjects = new ArrayList<>();
    for (Goal g : goals) {
      Map<String, Object> goal = new LinkedHashMap<>();
      goal.put("scenario", g.scenario());
      goal.put("goal", g.goal());
      goal.put("measured", g.measured());
      goal.put("met", g.met());
      goalObjects.add(goal);
    }
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("settings", settings);
    report.put("rows", rowObjects);
    report.put("goals", goalObjects);
    return Json.write(report);
  }

  /** A page that needs nothing else: a chart per scenario, the goals, the tables. */
  public String html() {
    StringBuilder page = new StringBuilder("<p>").append(OverheadChart.escape(settings)).append("</p>\n");
    byScenario().forEach((scenario, of) -> {
      String[] charted = CHARTED.get(scenario);
      SvgBarChart chart = new SvgBarChart(charted[1], charted[2]);
      for (Row r : of) {
        chart.bar(r.mode() + " " + r.load(), r.server(), r.get(charted[0]));
      }
      page.append("<h2>").append(scenario).append("</h2>\n").append(chart.svg());
    });
    page.append("<h2>goals</h2>\n<ul>\n");
    for (Goal g : goals) {
      page.append("<li><b>").append(g.verdict()).append("</b> ").append(OverheadChart.escape(g.goal())).append(": ")
          .append(OverheadChart.escape(g.measured())).append("</li>\n");
    }
    page.append("</ul>\n");
    return ReportFiles.page("server-bench", "Non-blocking server against TThreadPoolServer", page.toString(), table());
  }

  /** Writes server-bench.csv, .json and .html into {@code dir} and returns the files written. */
  public List<Path> write(Path dir) throws IOException {
    return ReportFiles.write(dir, List.of(Map.entry("server-bench.csv", csv()), Map.entry("server-bench.json", json()),
        Map.entry("server-bench.html", html())));
  }

  /** The rows, for tests and callers that check figures. */
  public List<Map<String, Object>> rows() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = labels(r);
      m.putAll(r.metrics());
      out.add(m);
    }
    return out;
  }

  /** What names a row: its scenario, mode, server and load, in that order, for the row's figures to follow. */
  private static Map<String, Object> labels(Row r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", r.scenario());
    m.put("mode", r.mode());
    m.put("server", r.server());
    m.put("load", r.load());
    return m;
  }

  /** Goals and whether each was met, for tests. */
  public Map<String, Boolean> goals() {
    Map<String, Boolean> out = new LinkedHashMap<>();
    goals.forEach(g -> out.put(g.goal(), g.met()));
    return out;
  }

  private static String number(double v) {
    if (!Double.isFinite(v)) {
      return "n/a";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e12) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.2f", v);
  }
}
