package io.securethrift.zkbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * zk-bench's figures from made-up rows and overheads: every summary column a median over the measured rounds of the
 * mode's own rows, the overheads as given, and the Markdown tables and stop line made from the result file alone.
 */
class ZkReportTest {
  private static final String SHAPE = "client-tls";
  private static final String TLS = "tls12-jsse";
  private static final StoppingRule ADAPTIVE = new StoppingRule(3.0, Duration.ofSeconds(420), 5, 0);

  @Test
  void summaryHasOneLinePerModeOfItsOwnRowsLeavingOutTheModesOwnBaseline() {
    List<Map<String, Object>> summary = report(overheads(), StoppingRule.Decision.PRECISE).results().summary();
    assertEquals(List.of("none", TLS), summary.stream().map(m -> m.get("mode")).toList());
    assertEquals(3, summary.get(0).get("rounds"), "warm-up rows are not rounds");
  }

  @Test
  void summaryColumnsAreMediansOverMeasuredRounds() {
    Map<String, Object> none = line("none");
    assertEquals(1100.0, none.get("median_wall_ms"), "1000, 1200, 1100; the warm-up's 99,999 left out");
    // 11,000 operations in 1000, 1200 and 1100 ms: 11,000, 9,166.7 and 10,000 per second.
    assertEquals(10_000.0, (double) none.get("ops_per_s"), 1e-9);
    // (600, 720, 660 ms - 60 ms of JIT) x 1e3 over 12,000 operations, asynchronous and synchronous.
    assertEquals(50.0, (double) none.get("client_cpu_us_per_op"), 1e-9);
    assertEquals(100.0, (double) none.get("server_cpu_us_per_op"), 1e-9);
    assertEquals(3.0, none.get("client_gc_ms"));
    assertEquals(4.0, none.get("server_gc_ms"));
    assertEquals(200.0, (double) none.get("sync_mean_us"), 1e-9, "200 ms over 1,000 requests");
    assertEquals(900.0, none.get("sync_create_p50_us"), "800, 1000, 900");
    assertEquals(2000.0, none.get("sync_get_p99_us"));
    assertEquals(21.0, none.get("session_ms"));
    assertTrue(Double.isNaN((double) none.get("handshake_first_ms")), "no handshake without TLS");

    Map<String, Object> tls = line(TLS);
    assertEquals(1210.0, tls.get("median_wall_ms"));
    assertEquals(11_000 / 1.21, (double) tls.get("ops_per_s"), 1e-9);
    assertEquals(700 * 1e3 / 12_000, (double) tls.get("client_cpu_us_per_op"), 1e-9);
    assertEquals(240.0, (double) tls.get("sync_mean_us"), 1e-9);
    assertEquals(35.0, tls.get("handshake_first_ms"));
    assertTrue(Double.isNaN((double) tls.get("handshake_later_ms")), "a round without the figure: no median");
    assertEquals(0.75, tls.get("handshakes_resumed"));
  }

  @Test
  void theBaselineHasNoOverheadAndAModeItsOwnOrNone() {
    Map<String, Object> none = line("none");
    assertEquals(0.0, none.get("wall_overhead_pct"));
    assertTrue(Double.isNaN((double) none.get("wall_overhead_low")));
    Map<String, Object> tls = line(TLS);
    assertEquals(List.of(10.0, 8.0, 12.0), List.of(tls.get("wall_overhead_pct"), tls.get("wall_overhead_low"),
        tls.get("wall_overhead_high")));
    assertEquals(List.of(25.0, 20.0, 30.0), List.of(tls.get("cpu_overhead_pct"), tls.get("cpu_overhead_low"),
        tls.get("cpu_overhead_high")));
    assertEquals(5.0, tls.get("sync_overhead_pct"));
    Map<String, Object> without = report(List.of(), StoppingRule.Decision.PRECISE).results().summary().get(1);
    assertTrue(Double.isNaN((double) without.get("cpu_overhead_pct")), without.toString());
  }

  @Test
  void markdownHasTheThroughputSyncAndSessionTables() {
    String md = markdown(overheads(), StoppingRule.Decision.PRECISE);
    assertTrue(md.startsWith("Run of 2024-05-06T07:08:09Z, commit abc123, Test JDK 17, 2 cores, load average 1.25 at"
        + " the start and 1.50 at the end, 400 s in all; stopped: every wall and CPU interval within +/-3.0 points."
        + "\n\nmade-up run.\n\n- client-tls: 1 standalone server, TLS on the client port, fsync off"
        + " (forceSync=no)\n\n"), md);
    assertTrue(md.contains("|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        + "| client-tls | none | 3 | 1100 | 10000 | baseline | baseline | baseline | 50.0 | 100.0 | 3 | 4 |\n"
        + "| client-tls | tls12-jsse | 3 | 1210 | 9091 | +10.0 % [+8.0, +12.0] | +25.0 % [+20.0, +30.0]"
        + " | +5.0 % [-10.0, +20.0] | 58.3 | 100.0 | 3 | 4 |\n"), md);
    assertTrue(md.contains("| shape | mode | mean | create p50 | create p99 | set p50 | set p99 | get p50 | get p99"
        + " | delete p50 | delete p99 |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
        + "| client-tls | none | 200 | 900 | 2000 | 900 | 2000 | 900 | 2000 | 900 | 2000 |\n"
        + "| client-tls | tls12-jsse | 240 | 900 | 2000 | 900 | 2000 | 900 | 2000 | 900 | 2000 |\n"), md);
    assertTrue(md.endsWith("| shape | mode | new session ms | first handshake ms | later handshake ms | resumed |\n"
        + "|---|---|---|---|---|---|\n"
        + "| client-tls | none | 21.0 | n/a | n/a | n/a |\n"
        + "| client-tls | tls12-jsse | 21.0 | 35.0 | n/a | 0.75 |\n"), md);
    assertTrue(md.contains("Published reference (quorum TLS, 3 servers, plaintext clients, fsync on): +1.7 %; like"
        + " for like with the `quorum-tls` rows only."), md);
  }

  @Test
  void aModeWithoutOverheadsShowsNotAvailable() {
    String md = markdown(List.of(), StoppingRule.Decision.ROUNDS_DONE);
    assertTrue(md.contains("| client-tls | tls12-jsse | 3 | 1210 | 9091 | n/a | n/a | n/a | 58.3 |"), md);
    assertTrue(md.contains("stopped: the fixed number of rounds was done."), md);
  }

  @Test
  void theStopLineNamesTheWallAndCpuIntervalsStillTooWideButNeverSync() {
    List<Overhead> wide = List.of(overhead(ZkBenchmark.WALL, new Interval(10, 8, 12)),
        overhead(ZkBenchmark.CPU, new Interval(25, 20, 30)), overhead(ZkBenchmark.SYNC, new Interval(5, -10, 20)));
    String md = markdown(wide, StoppingRule.Decision.OUT_OF_TIME);
    assertTrue(md.contains("stopped: the time budget was spent, not within +/-3.0 points: client-tls tls12-jsse cpu"
        + " (+/-5.0).\n"), md);
    String unbounded = markdown(List.of(overhead(ZkBenchmark.WALL, Interval.unbounded(4))),
        StoppingRule.Decision.OUT_OF_TIME);
    assertTrue(unbounded.contains("not within +/-3.0 points: client-tls tls12-jsse wall (no interval: fewer than"),
        unbounded);
  }

  @Test
  void pageChartsEachSidesCpuPerOperation() {
    String html = report(overheads(), StoppingRule.Decision.PRECISE).html();
    assertTrue(html.contains("data-series=\"client\" data-value=\"50.000\""), html);
    assertTrue(html.contains("data-series=\"client\" data-value=\"58.333\""), html);
    assertEquals(2, html.split("data-series=\"servers\" data-value=\"100.000\"", -1).length - 1, html);
    assertEquals(0, html.split("class=\"reference\"", -1).length - 1, "no published mark beside client-tls");
    assertTrue(html.contains("data-low=\"20.000\" data-high=\"30.000\""), "the CPU interval: " + html);
  }

  private static Map<String, Object> line(String mode) {
    return report(overheads(), StoppingRule.Decision.PRECISE).results().summary().stream()
        .filter(m -> m.get("mode").equals(mode)).findFirst().orElseThrow();
  }

  private static String markdown(List<Overhead> overheads, StoppingRule.Decision decision) {
    return ZkReport.markdown(ResultsFile.fromJson(report(overheads, decision).results().toJson()));
  }

  private static List<Overhead> overheads() {
    return List.of(overhead(ZkBenchmark.WALL, new Interval(10, 8, 12)),
        overhead(ZkBenchmark.CPU, new Interval(25, 20, 30)), overhead(ZkBenchmark.SYNC, new Interval(5, -10, 20)));
  }

  private static Overhead overhead(String metric, Interval interval) {
    return new Overhead(SHAPE, TLS, metric, new double[] {1.1, 1.1, 1.1}, interval);
  }

  /**
   * Three measured rounds of none and tls12-jsse after a warm-up, and tls12-jsse's own baseline rows, which would
   * move none's medians were they counted.
   */
  private static ZkReport report(List<Overhead> overheads, StoppingRule.Decision decision) {
    List<Measurement> rows = new ArrayList<>();
    rows.add(row("none", 0, 99_999, 9_999, 800, Double.NaN, Double.NaN, Double.NaN));
    rows.add(row("none", 1, 1000, 600, 800, Double.NaN, Double.NaN, Double.NaN));
    rows.add(row("none", 2, 1200, 720, 1000, Double.NaN, Double.NaN, Double.NaN));
    rows.add(row("none", 3, 1100, 660, 900, Double.NaN, Double.NaN, Double.NaN));
    rows.add(row(TLS, 1, 1100, 700, 800, 30, 5, 1.0));
    rows.add(row(TLS, 2, 1320, 820, 1000, 40, Double.NaN, 0.5));
    rows.add(row(TLS, 3, 1210, 760, 900, 35, 7, 0.75));
    for (int round = 1; round <= 3; round++) {
      rows.add(row(PairedAnalysis.ownBaseline(TLS, "none"), round, 5, 5, 5, 5, 5, 5));
    }
    RunInfo info = new RunInfo("abc123", "Test JDK 17", 2, 1.25, 1.5, Instant.parse("2024-05-06T07:08:09Z"),
        Duration.ofSeconds(400));
    return new ZkReport("made-up run", Map.of("znodes", 1000), List.of(Shape.CLIENT_TLS.describe()), info, ADAPTIVE,
        decision, overheads, rows);
  }

  /**
   * A row of 11,000 asynchronous and 1,000 synchronous operations; every side's JIT took 60 ms, the servers 1,260 ms
   * of CPU; the synchronous phase took 200 ms without TLS and 240 with it.
   */
  private static Measurement row(String mode, int round, double wallMs, double clientCpuMs, double createP50,
      double handshakeFirst, double handshakeLater, double resumed) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put(ZkRow.WALL_MS, wallMs);
    v.put(ZkRow.OPS, 11_000L);
    v.put(ZkRow.SYNC_MS, mode.equals("none") ? 200.0 : 240.0);
    v.put(ZkRow.SYNC_OPS, 1_000L);
    v.put(ZkRow.SESSION_MS, 20.0 + round % 3);
    v.put(ZkRow.HANDSHAKE_FIRST_MS, handshakeFirst);
    v.put(ZkRow.HANDSHAKE_LATER_MS, handshakeLater);
    v.put(ZkRow.HANDSHAKES_RESUMED, resumed);
    v.put(ZkRow.CLIENT + ZkRow.CPU_MS, clientCpuMs);
    v.put(ZkRow.CLIENT + ZkRow.JIT_MS, 60.0);
    v.put(ZkRow.SERVER + ZkRow.CPU_MS, 1260.0);
    v.put(ZkRow.SERVER + ZkRow.JIT_MS, 60.0);
    v.put(ZkRow.CLIENT + ZkRow.GC_MS, 3L);
    v.put(ZkRow.SERVER + ZkRow.GC_MS, 4L);
    for (String op : Workload.SYNC_OPS) {
      v.put(ZkRow.syncColumn(op, 50), op.equals("create") ? createP50 : 900.0);
      v.put(ZkRow.syncColumn(op, 99), 2000.0);
    }
    return new Measurement(SHAPE, mode, round, v);
  }
}
