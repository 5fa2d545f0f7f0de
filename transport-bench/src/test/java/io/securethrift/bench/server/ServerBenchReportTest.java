package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server-bench's renderings of made-up rows and goals: the tables, one figure a CSV line, JSON and the page. */
class ServerBenchReportTest {
  @TempDir
  Path dir;

  @Test
  void tableHasAScenarioTableInRunOrderWithTheFirstRowsColumnsThenGoalsAndNotes() {
    String expected = "modes [none]; a < b\n\n"
        + "| idle | mode | server | load | held | server_threads | rss_kb_per_conn |\n"
        + "|---|---|---|---|---|---|---|\n"
        + "| | none | nonblocking | 50 conns | 50 | 9 | 31.25 |\n"
        + "| | none | threadpool | 50 conns | 50 | 58 | 0.13 |\n"
        + "\n"
        + "| calls | mode | server | load | calls_per_s | p99_ms |\n"
        + "|---|---|---|---|---|---|\n"
        + "| | none | threadpool | 4 conns x 100 B | 1235 | n/a |\n"
        + "| | none | nonblocking | 4 conns x 100 B | 10000000000000 | -3 |\n"
        + "\n"
        + "| goal | measured | verdict |\n|---|---|---|\n"
        + "| fast | 2x | met |\n"
        + "| small | 50 KB | MISSED |\n"
        + "\nNote: handshakes skipped: no openssl\n";
    assertEquals(expected, report().table());
  }

  @Test
  void csvHasOneFigureALineWithTheSameNumberFormat() {
    assertEquals("scenario,mode,server,load,metric,value\n"
        + "calls,none,threadpool,4 conns x 100 B,calls_per_s,1235\n"
        + "calls,none,threadpool,4 conns x 100 B,p99_ms,n/a\n"
        + "calls,none,nonblocking,4 conns x 100 B,calls_per_s,10000000000000\n"
        + "calls,none,nonblocking,4 conns x 100 B,p99_ms,-3\n"
        + "idle,none,nonblocking,50 conns,held,50\n"
        + "idle,none,nonblocking,50 conns,server_threads,9\n"
        + "idle,none,nonblocking,50 conns,rss_kb_per_conn,31.25\n"
        + "idle,none,threadpool,50 conns,held,50\n"
        + "idle,none,threadpool,50 conns,server_threads,58\n"
        + "idle,none,threadpool,50 conns,rss_kb_per_conn,0.13\n"
        + "idle,none,threadpool,50 conns,extra,7.50\n", report().csv(),
        "whole numbers whole, else two decimals below 100 and none from 100 on, n/a for no number");
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonHasEveryRowsFiguresAndEveryGoalsVerdict() {
    Map<String, Object> json = (Map<String, Object>) Json.parse(report().json());
    assertEquals("modes [none]; a < b", json.get("settings"));
    List<Map<String, Object>> rows = (List<Map<String, Object>>) json.get("rows");
    assertEquals(4, rows.size());
    assertEquals("calls", rows.get(0).get("scenario"), "rows stay in the order they ran");
    Map<String, Object> metrics = (Map<String, Object>) rows.get(0).get("metrics");
    assertEquals(1234.5, metrics.get("calls_per_s"));
    assertNull(metrics.get("p99_ms"), "a figure that is not a number is null");
    assertTrue(metrics.containsKey("p99_ms"));
    List<Map<String, Object>> goals = (List<Map<String, Object>>) json.get("goals");
    assertEquals(Map.of("scenario", "calls", "goal", "fast", "measured", "2x", "met", true), goals.get(0));
    assertEquals(false, goals.get(1).get("met"));
  }

  @Test
  void rowsAndGoalsForCallersAreFlatAndInOrder() {
    ServerBenchReport report = report();
    assertEquals(4, report.rowCount());
    Map<String, Object> first = report.rows().get(0);
    assertEquals(List.of("scenario", "mode", "server", "load", "calls_per_s", "p99_ms"),
        List.copyOf(first.keySet()));
    assertEquals("4 conns x 100 B", first.get("load"));
    Map<String, Boolean> goals = new LinkedHashMap<>();
    goals.put("fast", true);
    goals.put("small", false);
    assertEquals(goals, report.goals());
  }

  @Test
  void pageChartsEachScenarioThatRanWithItsFigureAndEscapesText() {
    String html = report().html();
    assertEquals(2, html.split("<svg ", -1).length - 1, html);
    assertTrue(html.contains("<p>modes [none]; a &lt; b</p>"), html);
    assertTrue(html.contains("RSS per idle connection (KB)") && html.contains("Closed-loop echo calls (calls/s)"),
        html);
    assertTrue(!html.contains("TLS handshakes") && !html.contains("<h2>flood</h2>"), "no chart without rows");
    assertTrue(html.indexOf("<h2>idle</h2>") < html.indexOf("<h2>calls</h2>"), html);
    // The idle chart's bars: 31.25 and 0.125 KB, labelled by mode and load, coloured by server.
    assertTrue(html.contains(">none 50 conns</text>") && html.contains(">31.25</text>")
        && html.contains(">0.13</text>"), html);
    assertTrue(html.contains("<li><b>met</b> fast: 2x</li>\n<li><b>MISSED</b> small: 50 KB</li>"), html);
    assertTrue(html.contains("<pre>modes [none]; a &lt; b\n\n| idle |"), html);
  }

  @Test
  void writesCsvJsonAndHtml() throws Exception {
    ServerBenchReport report = report();
    List<Path> files = report.write(dir.resolve("new"));
    assertEquals(List.of("server-bench.csv", "server-bench.json", "server-bench.html"),
        files.stream().map(p -> p.getFileName().toString()).toList());
    assertEquals(report.csv(), Files.readString(files.get(0), StandardCharsets.UTF_8));
    assertEquals(report.json(), Files.readString(files.get(1), StandardCharsets.UTF_8));
    assertEquals(report.html(), Files.readString(files.get(2), StandardCharsets.UTF_8));
  }

  @Test
  void aStallRowIsChartedByWhatThePeersMadeTheServerHold() {
    Row stall = new Row(StalledReaders.SCENARIO, "none", "nonblocking", "2 peers x 12 x 1 MiB calls, never reading",
        new Row.Figures().put("held_mb_before", 10).put("held_rise_mb", 42.5).put("peers_closed", 0).map());
    String html = new ServerBenchReport(List.of(stall), List.of(), List.of(), "modes [none]").html();
    assertEquals(1, html.split("<svg ", -1).length - 1, html);
    assertTrue(html.contains("<h2>stall</h2>"), html);
    assertTrue(html.contains("42.5"), "the held rise is the bar: " + html);
  }

  @Test
  void everyScenarioHasAChart() {
    List<Row> rows = ServerBenchOptions.SCENARIOS.stream().map(s -> new Row(s, "none", "nonblocking", "load",
        new Row.Figures().put("x", 1).map())).toList();
    String html = new ServerBenchReport(rows, List.of(), List.of(), "modes [none]").html();
    assertEquals(ServerBenchOptions.SCENARIOS.size(), html.split("<svg ", -1).length - 1, html);
  }

  /**
   * Rows of two scenarios, the calls first; the second idle row has a figure the first lacks, the second calls row
   * numbers that test the formatting: an integer too large to print whole, a negative one.
   */
  private static ServerBenchReport report() {
    List<Row> rows = List.of(
        new Row("calls", "none", "threadpool", "4 conns x 100 B", new Row.Figures().put("calls_per_s", 1234.5)
            .put("p99_ms", Double.NaN).map()),
        new Row("calls", "none", "nonblocking", "4 conns x 100 B", new Row.Figures().put("calls_per_s", 1e13)
            .put("p99_ms", -3).map()),
        new Row("idle", "none", "nonblocking", "50 conns", new Row.Figures().put("held", 50).put("server_threads", 9)
            .put("rss_kb_per_conn", 31.25).map()),
        new Row("idle", "none", "threadpool", "50 conns", new Row.Figures().put("held", 50).put("server_threads", 58)
            .put("rss_kb_per_conn", 0.125).put("extra", 7.5).map()));
    List<Goal> goals = List.of(new Goal("calls", "fast", "2x", true), new Goal("idle", "small", "50 KB", false));
    return new ServerBenchReport(rows, goals, List.of("handshakes skipped: no openssl"), "modes [none]; a < b");
  }
}
