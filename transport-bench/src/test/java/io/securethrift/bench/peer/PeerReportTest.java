package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.BenchMode;
import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.RecordCost;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * peer-bench's figures from made-up rows and overheads: the medians over measured rounds (warm-up rows left out),
 * the speed ratios turned from cost overheads, and the Markdown and HTML made from the result file alone.
 */
class PeerReportTest {
  private static final int MIB = 1 << 20;
  /** A megabyte: a bulk metric of this size has its CPU per operation as its CPU per MB. */
  private static final int MB = 1_000_000;
  private static final String BULK = "bulk-1MiB";
  private static final String RT = "rt-100B";
  /** Bulk CPU nanoseconds of every row: 1e7 ns over N operations is 1e4 / N µs per operation. */
  private static final double BULK_CPU_NS = 1e7;
  /** Round-trip CPU nanoseconds of every row: 6e4 / N µs per operation. */
  private static final double RT_CPU_NS = 6e7;

  @TempDir
  Path dir;

  @Test
  void summaryHasTheMedianRateAndCpuOfMeasuredRoundsOnly() {
    List<Map<String, Object>> summary = report().results().summary();
    assertEquals(6, summary.size(), "3 pairings x 2 metrics: " + summary);

    Map<String, Object> libBulk = line(summary, "libthrift", BULK);
    assertEquals("none", libBulk.get("mode"));
    assertEquals("MB/s each way", libBulk.get("unit"));
    assertEquals("MB/s each way, 1 MiB messages", libBulk.get("description"));
    assertEquals(3, libBulk.get("rounds"), "the warm-up row is not a round");
    // Operations 100, 300, 200 in a second each: median 200 x 1 MiB = 209.7152 MB/s.
    assertEquals(200 * 1.048576, (double) libBulk.get("median_rate"), 1e-9);
    // 1e4 µs over 100, 300, 200 operations: 100, 33.3, 50; the median is 50.
    assertEquals(50.0, (double) libBulk.get("median_cpu_us_per_op"), 1e-9);
    assertEquals(1.0, libBulk.get("ratio"), "the baseline against itself");
    assertEquals(1.0, libBulk.get("ratio_low"));
    assertEquals(1.0, libBulk.get("ratio_high"));

    Map<String, Object> libRt = line(summary, "libthrift", RT);
    assertEquals(6000.0, (double) libRt.get("median_rate"), 1e-9);
    assertEquals(10.0, (double) libRt.get("median_cpu_us_per_op"), 1e-9);

    // Two measured rounds: the median is the mean of the middle two.
    Map<String, Object> ourClientBulk = line(summary, "our-client", BULK);
    assertEquals(2, ourClientBulk.get("rounds"));
    assertEquals(150 * 1.048576, (double) ourClientBulk.get("median_rate"), 1e-9);
    assertEquals(75.0, (double) ourClientBulk.get("median_cpu_us_per_op"), 1e-9);
    Map<String, Object> ourClientRt = line(summary, "our-client", RT);
    assertEquals(7000.0, (double) ourClientRt.get("median_rate"), 1e-9);
    assertEquals(8.75, (double) ourClientRt.get("median_cpu_us_per_op"), 1e-9);
  }

  @Test
  void ratiosAreSpeedRatiosOfTheCostOverheadsWithSwappedBounds() {
    List<Map<String, Object>> summary = report().results().summary();
    // A cost 20 % lower [-25, -15] is a rate 100/80 times as high, [100/85, 100/75].
    Map<String, Object> bulk = line(summary, "securethrift", BULK);
    assertEquals(1.25, (double) bulk.get("ratio"), 1e-12);
    assertEquals(100 / 85.0, (double) bulk.get("ratio_low"), 1e-12);
    assertEquals(100 / 75.0, (double) bulk.get("ratio_high"), 1e-12);
    Map<String, Object> rt = line(summary, "securethrift", RT);
    assertEquals(100 / 105.0, (double) rt.get("ratio"), 1e-12);
    assertEquals(100 / 108.0, (double) rt.get("ratio_low"), 1e-12);
    assertEquals(100 / 102.0, (double) rt.get("ratio_high"), 1e-12);
    // No overhead for the cell: no ratio, and no bounds.
    Map<String, Object> missing = line(summary, "our-client", RT);
    assertTrue(Double.isNaN((double) missing.get("ratio")), missing.toString());
    assertTrue(Double.isNaN((double) missing.get("ratio_low")), missing.toString());
    assertTrue(Double.isNaN((double) missing.get("ratio_high")), missing.toString());
  }

  @Test
  void markdownFromTheJsonAloneHasTheRatioTableTheRowsBelowTheBarAndTheRates() {
    String md = PeerReport.markdown(ResultsFile.fromJson(report().results().toJson()));
    assertTrue(md.startsWith("Run of 2024-01-02T03:04:05Z, commit abc123, Test JDK 17, 2 cores, load average 0.50 at"
        + " the start and 0.75 at the end, 90 s in all; stopped: the fixed number of rounds was done.\n\n"), md);
    assertTrue(md.contains("\n| mode | metric | libthrift | securethrift | our-client |\n|---|---|---|---|---|\n"
        + "| none | MB/s each way, 1 MiB messages | 210 | 1.25× [1.18, 1.33] | 1.00× [0.99, 1.01] |\n"
        + "| none | round trips/s, 100 B messages | 6,000 | 0.95× [0.93, 0.98] | n/a |\n"), md);
    assertTrue(md.contains("\nRows where securethrift is below 1.00× or its interval's lower end below 0.97:"
        + " none rt-100B 0.95× [0.93, 0.98].\n"), md);
    assertTrue(md.contains("| mode | metric | unit | libthrift | securethrift | our-client |\n"
        + "|---|---|---|---|---|---|\n"
        + "| none | bulk-1MiB | MB/s each way | 210 (50 µs) | 262 (40 µs) | 157 (75 µs) |\n"
        + "| none | rt-100B | round trips/s | 6,000 (10 µs) | 5,700 (11 µs) | 7,000 (9 µs) |\n"), md);
  }

  @Test
  void aRowAtParWithALowEndAboveTheBarIsNotListedBelowIt() {
    List<Overhead> overheads = List.of(
        overhead("securethrift", BULK, new Interval(0, -2, 2)),
        overhead("securethrift", RT, new Interval(0, -2, 3.5)));
    String md = PeerReport.markdown(report(overheads).results());
    // 100/102 = 0.980 is at least 0.97; 100/103.5 = 0.966 is not.
    assertTrue(md.contains("| none | MB/s each way, 1 MiB messages | 210 | 1.00× [0.98, 1.02] | n/a |"), md);
    assertTrue(md.contains("below 0.97: none rt-100B 1.00× [0.97, 1.02].\n"), md);
    String none = PeerReport.markdown(report(List.of(overhead("securethrift", BULK, new Interval(-1, -2, 0)),
        overhead("securethrift", RT, new Interval(-1, -2, 1)))).results());
    assertTrue(none.contains("below 0.97: none.\n"), none);
  }

  @Test
  void htmlChartsEveryMetricAsPercentFasterAndEmbedsTheEscapedTables() {
    String html = report().html();
    assertEquals(2, html.split("<svg ", -1).length - 1, "a chart per metric: " + html);
    assertTrue(html.contains("MB/s each way, 1 MiB messages: rate vs libthrift in %, higher is faster"), html);
    // securethrift's bulk ratio 1.25 [1.176, 1.333] is +25 % [+17.6, +33.3].
    assertTrue(html.contains("data-low=\"17.647\" data-high=\"33.333\""), html);
    assertTrue(html.contains("data-value=\"25.000\""), html);
    // Three of the four charted points have an estimate (the baseline is not charted; our-client has no rt ratio).
    assertEquals(3, html.split("class=\"estimate\"", -1).length - 1, html);
    assertTrue(html.contains("<pre>Run of 2024-01-02T03:04:05Z") && html.contains("| none | rt-100B | round"
        + " trips/s |"), html);
    assertTrue(html.endsWith("</pre>\n</body></html>\n"), html);
  }

  @Test
  void writesTheFourFilesAndTheJsonReadsBackAsAPeerBenchFile() throws Exception {
    PeerReport report = report();
    List<Path> written = report.write(dir);
    assertEquals(List.of("peer-results.json", "peer-results.csv", "peer-iterations.csv", "peer-results.html"),
        written.stream().map(p -> p.getFileName().toString()).toList());
    ResultsFile read = ResultsFile.read(written.get(0), PeerReport.TOOL);
    assertEquals("libthrift", read.baseline());
    assertEquals("mode", read.groupLabel());
    assertEquals("pairing", read.variantLabel());
    assertEquals("ROUNDS_DONE", read.stopped());
    // A fixed number of rounds has an infinite precision target, which JSON writes as null and reads back as NaN.
    assertTrue(Double.isNaN(read.precision()), "precision " + read.precision());
    assertEquals(List.of("libthrift", "securethrift", "our-client"), read.settings().get("pairings"));
    assertEquals(3.0, read.settings().get("rounds"));
    assertEquals(11, read.rows().size());
    String summaryCsv = Files.readString(written.get(1), StandardCharsets.UTF_8);
    assertTrue(summaryCsv.startsWith("mode,pairing,metric,description,unit,rounds,median_rate,median_cpu_us_per_op,"
        + "ratio,ratio_low,ratio_high,tls_extra_cpu_us_per_mb,record_floor_us_per_mb,record_cipher_suite\n"),
        summaryCsv);
    // No TLS: no extra CPU, floor or suite.
    assertTrue(summaryCsv.contains("\nnone,securethrift,rt-100B,\"round trips/s, 100 B messages\",round trips/s,3,"
        + "5700.000,10.526,0.952,0.926,0.980,,,\n"), summaryCsv);
    String iterations = Files.readString(written.get(2), StandardCharsets.UTF_8);
    assertTrue(iterations.startsWith("mode,pairing,round,bulk-1MiB_ops,bulk-1MiB_ns,bulk-1MiB_cpu_ns,rt-100B_ops,"
        + "rt-100B_ns,rt-100B_cpu_ns\n"), iterations);
  }

  @Test
  void aModeWithoutAPairingShowsNotAvailable() {
    BenchMode tls = PeerModes.MODES.parse("--modes", "tls-jsse");
    List<Measurement> rows = new ArrayList<>();
    rows.add(row("libthrift", 1, 100, 5000));
    rows.add(row("securethrift", 1, 100, 5000));
    rows.add(new Measurement(tls.name(), "libthrift", 1, row("libthrift", 1, 400, 2000).values()));
    PeerSettings settings = new PeerSettings(List.of(PeerModes.MODES.parse("--modes", "none"), tls),
        List.of(Pairing.SECURETHRIFT), List.of(MIB), List.of(100), false, 1.0, 1, 0.5, 1, StoppingRule.fixed(1),
        Path.of("out"));
    RunInfo info = new RunInfo("c", "j", 1, -1, -1, Instant.EPOCH, Duration.ZERO);
    String md = PeerReport.markdown(new PeerReport(settings, info, StoppingRule.fixed(1),
        StoppingRule.Decision.ROUNDS_DONE, List.of(), rows, Map.of()).results());
    // The tls-jsse mode ran libthrift only: its securethrift cells are n/a, and count as below the bar.
    assertTrue(md.contains("| tls-jsse | MB/s each way, 1 MiB messages | 419 | n/a |\n"), md);
    assertTrue(md.contains("| tls-jsse | rt-100B | round trips/s | 2,000 (30 µs) | n/a |\n"), md);
    assertTrue(md.contains("below 0.97: none bulk-1MiB n/a, none rt-100B n/a, tls-jsse bulk-1MiB n/a,"
        + " tls-jsse rt-100B n/a.\n"), md);
    assertTrue(md.startsWith("Run of 1970-01-01T00:00:00Z, commit c, j, 1 cores, load average -1.00 at the start"), md);
  }

  @Test
  void eachTlsModesExtraCpuPerMegabyteEchoedStandsBesideItsEnginesRecordsForAnEcho() {
    PeerMetric bulk = PeerMetric.bulk(MB);
    BenchMode none = PeerModes.MODES.parse("--modes", "none");
    BenchMode tls = PeerModes.MODES.parse("--modes", "tls-jsse");
    List<Measurement> rows = new ArrayList<>();
    // CPU microseconds per operation of 1 MB each way. libthrift's TLS cells spend 500, 700 and 500 more than its
    // plaintext cells, securethrift's 900, 1,000 and 1,100; the warm-up round and a round without the plaintext cell
    // do not count.
    double[][] libthrift = {{3000, 3200, 3100, 1}, {3500, 3900, 3600, 1}};
    double[][] ours = {{2000, 2000, 2000, 1}, {2900, 3000, 3100, 9999}};
    for (int round = 1; round <= 3; round++) {
      rows.add(bulkRow(none, Pairing.BASELINE, round, MB, libthrift[0][round - 1]));
      rows.add(bulkRow(tls, Pairing.BASELINE, round, MB, libthrift[1][round - 1]));
      rows.add(bulkRow(none, Pairing.SECURETHRIFT, round, MB, ours[0][round - 1]));
      rows.add(bulkRow(tls, Pairing.SECURETHRIFT, round, MB, ours[1][round - 1]));
    }
    rows.add(bulkRow(tls, Pairing.SECURETHRIFT, 0, MB, 1e6));
    rows.add(bulkRow(tls, Pairing.SECURETHRIFT, 4, MB, 1e6));
    PeerSettings settings = new PeerSettings(List.of(none, tls), List.of(Pairing.SECURETHRIFT), List.of(MB),
        List.of(), false, 1.0, 1, 0.5, 1, StoppingRule.fixed(3), Path.of("out"));
    RunInfo info = new RunInfo("c", "j", 2, 0.1, 0.2, Instant.EPOCH, Duration.ofSeconds(9));
    PeerReport report = new PeerReport(settings, info, StoppingRule.fixed(3), StoppingRule.Decision.ROUNDS_DONE,
        List.of(), rows, Map.of(tls.name(), new RecordCost(500, 400, "TLS_AES_128_GCM_SHA256")));

    // The cell seals and opens each MB going out and again coming back: 2 x (500 + 400) us.
    Map<String, Object> ourTls = line(report.results().summary(), "tls-jsse", "securethrift", bulk.name());
    assertEquals(1000.0, (double) ourTls.get("tls_extra_cpu_us_per_mb"), 1e-9);
    assertEquals(1800.0, (double) ourTls.get("record_floor_us_per_mb"), 1e-9);
    assertEquals("TLS_AES_128_GCM_SHA256", ourTls.get("record_cipher_suite"));
    Map<String, Object> plain = line(report.results().summary(), "none", "securethrift", bulk.name());
    assertTrue(Double.isNaN((double) plain.get("record_floor_us_per_mb")), plain.toString());
    assertEquals("", plain.get("record_cipher_suite"));

    String md = PeerReport.markdown(ResultsFile.fromJson(report.results().toJson()));
    assertTrue(md.contains("| mode | metric | engine's records | libthrift | securethrift |\n|---|---|---|---|---|\n"
        + "| tls-jsse | bulk-1000000B | 1,800 (TLS_AES_128_GCM_SHA256) | 500 (0.28×) | 1,000 (0.56×) |\n"), md);
  }

  @Test
  void withoutThePlaintextModeThereIsNoExtraButStillTheFloorAndWithoutTlsNoTable() {
    BenchMode tls = PeerModes.MODES.parse("--modes", "tls-jsse");
    PeerSettings settings = new PeerSettings(List.of(tls), List.of(), List.of(MIB), List.of(), false, 1.0, 1, 0.5, 1,
        StoppingRule.fixed(1), Path.of("out"));
    RunInfo info = new RunInfo("c", "j", 2, 0.1, 0.2, Instant.EPOCH, Duration.ofSeconds(9));
    String md = PeerReport.markdown(new PeerReport(settings, info, StoppingRule.fixed(1),
        StoppingRule.Decision.ROUNDS_DONE, List.of(), List.of(bulkRow(tls, Pairing.BASELINE, 1, MIB, 3000)),
        Map.of(tls.name(), new RecordCost(500, 400, "TLS_AES_128_GCM_SHA256"))).results());
    assertTrue(md.contains("| tls-jsse | bulk-1MiB | 1,800 (TLS_AES_128_GCM_SHA256) | n/a (n/a) |\n"), md);
    assertFalse(PeerReport.markdown(report().results()).contains("TLS's extra CPU"), "a run without TLS");
  }

  /** A cell's row of the bulk metric of {@code size}: 100 operations of {@code cpuUsPerOp} CPU microseconds each. */
  private static Measurement bulkRow(BenchMode mode, Pairing pairing, int round, int size, double cpuUsPerOp) {
    PeerMetric metric = PeerMetric.bulk(size);
    return new Measurement(mode.name(), pairing.label(), round, Map.of(metric.opsColumn(), 100,
        metric.nanosColumn(), 1_000_000_000L, metric.cpuColumn(), cpuUsPerOp * 100 * 1e3));
  }

  private static Map<String, Object> line(List<Map<String, Object>> summary, String mode, String pairing,
      String metric) {
    return summary.stream().filter(m -> m.get("mode").equals(mode) && m.get("pairing").equals(pairing)
        && m.get("metric").equals(metric)).findFirst().orElseThrow();
  }

  private static Map<String, Object> line(List<Map<String, Object>> summary, String pairing, String metric) {
    return summary.stream().filter(m -> m.get("pairing").equals(pairing) && m.get("metric").equals(metric))
        .findFirst().orElseThrow(() -> new AssertionError("no " + pairing + " " + metric + " in " + summary));
  }

  private static PeerReport report() {
    return report(List.of(
        overhead("securethrift", BULK, new Interval(-20, -25, -15)),
        overhead("securethrift", RT, new Interval(5, 2, 8)),
        overhead("our-client", BULK, new Interval(0, -1, 1))));
  }

  /**
   * One mode, libthrift and securethrift in rounds 1 to 3, our-client in rounds 1 and 2, each after a warm-up row
   * whose figures would move every median.
   */
  private static PeerReport report(List<Overhead> overheads) {
    List<Measurement> rows = new ArrayList<>();
    rows.add(row("libthrift", 0, 1_000_000, 1));
    rows.add(row("libthrift", 1, 100, 5000));
    rows.add(row("libthrift", 2, 300, 7000));
    rows.add(row("libthrift", 3, 200, 6000));
    rows.add(row("securethrift", 0, 1_000_000, 1));
    for (int round = 1; round <= 3; round++) {
      rows.add(row("securethrift", round, 250, 5700));
    }
    rows.add(row("our-client", 0, 1_000_000, 1));
    rows.add(row("our-client", 1, 100, 6000));
    rows.add(row("our-client", 2, 200, 8000));
    PeerSettings settings = new PeerSettings(List.of(PeerModes.MODES.parse("--modes", "none")),
        List.of(Pairing.SECURETHRIFT, Pairing.OUR_CLIENT), List.of(MIB), List.of(100), false, 1.0, 2, 0.5, 3,
        StoppingRule.fixed(3), Path.of("out"));
    RunInfo info = new RunInfo("abc123", "Test JDK 17", 2, 0.5, 0.75, Instant.parse("2024-01-02T03:04:05Z"),
        Duration.ofSeconds(90));
    return new PeerReport(settings, info, StoppingRule.fixed(3), StoppingRule.Decision.ROUNDS_DONE, overheads, rows,
        Map.of());
  }

  /** A cell's row: every metric over one second. */
  private static Measurement row(String pairing, int round, long bulkOps, long rtOps) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put(BULK + "_ops", bulkOps);
    v.put(BULK + "_ns", 1_000_000_000L);
    v.put(BULK + "_cpu_ns", BULK_CPU_NS);
    v.put(RT + "_ops", rtOps);
    v.put(RT + "_ns", 1_000_000_000L);
    v.put(RT + "_cpu_ns", RT_CPU_NS);
    return new Measurement("none", pairing, round, v);
  }

  private static Overhead overhead(String pairing, String metric, Interval interval) {
    return new Overhead("none", pairing, metric, new double[] {1, 1, 1}, interval);
  }
}
