package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.RecordCost;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report from known rows: every round tls-jsse takes 10 % longer and 20 % more CPU than none; sasl-auth's cost
 * varies from round to round.
 */
class BenchReportTest {
  @TempDir
  Path dir;

  private static Measurement row(String mode, int round, double ms, long cpuMs) {
    return row(mode, round, ms, cpuMs, 40);
  }

  private static Measurement row(String mode, int round, double ms, long cpuMs, long serverGcMs) {
    IngestResult result = new IngestResult(1_000_000, 100_000_000, (long) (ms * 1e6), cpuMs * 1_000_000);
    ProcessSample client = new ProcessSample(cpuMs * 1_000_000, cpuMs * 1_000_000, 0, 1000, 120_000_000, 3, 30, 0);
    ProcessSample server = new ProcessSample(2 * cpuMs * 1_000_000, 2 * cpuMs * 1_000_000, 0, 120_000_000, 1000, 4,
        serverGcMs, 0);
    return IterationRow.of("threadpool", mode, 0, round, result, new TargetSample(client, server),
        new VerifyResult(900_000, 100_000, 0, 0, List.of()));
  }

  private static BenchReport report(StoppingRule rule, StoppingRule.Decision decision, String stopMetric) {
    List<Measurement> rows = new ArrayList<>();
    rows.add(row("none", 0, 5000, 9000));
    double[] sasl = {1.3, 1.1, 1.5, 1.2};
    for (int round = 1; round <= 4; round++) {
      double drift = 1000 + 100 * round;
      rows.add(row("none", round, drift, 1000));
      rows.add(row("tls-jsse", round, drift * 1.1, 1200));
      rows.add(row("sasl-auth", round, drift * sasl[round - 1], 1300));
    }
    List<Overhead> overheads = new ArrayList<>(PairedAnalysis.overheads(rows, "none", IngestBenchmark.WALL,
        IterationRow::wallPerEntry, 1));
    overheads.addAll(PairedAnalysis.overheads(rows, "none", IngestBenchmark.CPU, IterationRow::cpuPerEntry, 1));
    List<ModeSummary> summaries = new ArrayList<>();
    for (String mode : List.of("none", "tls-jsse", "sasl-auth")) {
      summaries.add(ModeSummary.of("threadpool", mode, rows.stream().filter(m -> !m.warmUp()
          && m.variant().equals(mode)).toList(),
          BenchReport.overheadOf(overheads, "threadpool", mode, IngestBenchmark.WALL, "none"),
          BenchReport.overheadOf(overheads, "threadpool", mode, IngestBenchmark.CPU, "none")));
    }
    RunInfo info = new RunInfo("abc123", "jdk", 2, 0.1, 0.2, Instant.EPOCH, Duration.ofSeconds(90));
    return new BenchReport("test settings", Map.of("seed", 1), info, rule, decision, stopMetric, "none", summaries,
        overheads, rows, Map.of("tls-jsse", new RecordCost(500, 400, "TLS_AES_128_GCM_SHA256")));
  }

  @Test
  void overheadsArePairedPerRoundWithIntervalsAndCpuIsPerEntryPerSide() {
    BenchReport report = report(new StoppingRule(3, Duration.ofMinutes(4), 3, 0), StoppingRule.Decision.PRECISE,
        IngestBenchmark.CPU);
    String table = report.table();
    assertTrue(table.contains("+10.0 % [+10.0, +10.0]"), table);
    assertTrue(table.contains("+20.0 % [+20.0, +20.0]"), table);
    // sasl-auth's wall time varies, but its CPU per entry does not: the CPU intervals are what stopped the run.
    assertTrue(table.contains("stopped: every CPU/entry interval within +/-3.0 points after 4 rounds, 90 s in all"),
        table);
    List<String> csv = report.results().summaryCsv().lines().toList();
    assertEquals("mode,server,rounds,median_wall_ms,median_entries,entries_per_s,mb_per_s,wall_overhead_pct,"
        + "wall_overhead_low,wall_overhead_high,cpu_overhead_pct,cpu_overhead_low,cpu_overhead_high,"
        + "client_cpu_us_per_entry,server_cpu_us_per_entry,client_cpu_us_per_mb,server_cpu_us_per_mb,client_gc_ms,"
        + "server_gc_ms,client_wire_mb,server_wire_mb,payload_mb,precision_met,client_extra_us_per_mb,"
        + "server_extra_us_per_mb,record_seal_us_per_mb,record_open_us_per_mb,record_cipher_suite", csv.get(0));
    // none: 1,000 ms client CPU for 1,000,000 entries of 100 MB = 1 us per entry, 10,000 us per MB; server twice.
    assertTrue(csv.get(1).startsWith("none,threadpool,4,1250.000,1000000.000,"), csv.get(1));
    assertTrue(csv.get(1).endsWith(",0.000,,,0.000,,,1.000,2.000,10000.000,20000.000,30.000,40.000,120.000,120.000,"
        + "100.000,true,0.000,0.000,,,"), csv.get(1));
    assertTrue(csv.get(2).contains(",10.000,10.000,10.000,20.000,20.000,20.000,1.200,2.400,"), csv.get(2));
    // tls-jsse: 12,000 and 24,000 us per MB against none's 10,000 and 20,000, beside seal 500 and open 400 us per MB
    // of records, for the 1.2 MB of Thrift messages (none's client writes 120 MB for 100 MB of payload).
    assertTrue(csv.get(2).endsWith(",2000.000,4000.000,600.000,480.000,TLS_AES_128_GCM_SHA256"), csv.get(2));
    assertTrue(csv.get(3).endsWith(",,,"), csv.get(3));
  }

  @Test
  void eachTlsModesExtraCpuPerMegabyteStandsBesideItsEnginesRecordCost() {
    String table = report(new StoppingRule(3, Duration.ofMinutes(4), 3, 0), StoppingRule.Decision.PRECISE,
        IngestBenchmark.CPU).table();
    List<String> lines = table.lines().toList();
    int head = lines.indexOf(lines.stream().filter(l -> l.startsWith("TLS cost per MB")).findFirst().orElseThrow());
    // Only the mode with TLS: the client's 2,000 us/MB over none is 3.33x the seal of 1.2 MB of messages, the
    // server's 4,000 8.33x the open.
    assertTrue(lines.get(head + 2).matches("threadpool +tls-jsse +2000 +600 +3\\.33 +4000 +480 +8\\.33 +"
        + "TLS_AES_128_GCM_SHA256"), lines.get(head + 2));
    assertTrue(lines.get(head + 3).startsWith("(us per MB of payload; extra: over none's turns, in the level's own"
        + " processes where it has them; seal/open: the engine's records for the 1.20 MB"), lines.get(head + 3));
  }

  @Test
  void aModeNameLongerThanTheColumnKeepsTheTableAlignedAndAFigureNotTakenShowsAsADash() {
    // A mode taking turns with its baseline in one server JVM has no server GC of its own (ProcessSample.UNKNOWN).
    String mode = "sasl-auth-conf-provider";
    List<Measurement> rows = List.of(row("none", 1, 1000, 1000), row(mode, 1, 1100, 1100, ProcessSample.UNKNOWN));
    List<Overhead> overheads = new ArrayList<>(PairedAnalysis.overheads(rows, "none", IngestBenchmark.WALL,
        IterationRow::wallPerEntry, 1));
    overheads.addAll(PairedAnalysis.overheads(rows, "none", IngestBenchmark.CPU, IterationRow::cpuPerEntry, 1));
    List<ModeSummary> summaries = new ArrayList<>();
    for (String m : List.of("none", mode)) {
      summaries.add(ModeSummary.of("threadpool", m, rows.stream().filter(r -> r.variant().equals(m)).toList(),
          BenchReport.overheadOf(overheads, "threadpool", m, IngestBenchmark.WALL, "none"),
          BenchReport.overheadOf(overheads, "threadpool", m, IngestBenchmark.CPU, "none")));
    }
    RunInfo info = new RunInfo("abc123", "jdk", 2, 0.1, 0.2, Instant.EPOCH, Duration.ofSeconds(9));
    BenchReport report = new BenchReport("settings", Map.of(), info, new StoppingRule(3, Duration.ofMinutes(4), 1, 0),
        StoppingRule.Decision.ROUNDS_DONE, IngestBenchmark.CPU, "none", summaries, overheads, rows, Map.of());
    List<String> lines = report.table().lines().toList();
    String header = lines.get(1);
    String none = lines.get(2);
    String provider = lines.get(3);
    assertEquals(header.indexOf("rounds") + "rounds".length(), none.indexOf(" 1 ") + 2, none);
    assertEquals(none.length(), provider.length(), none + "\n" + provider);
    assertTrue(provider.startsWith("threadpool  " + mode + " "), provider);
    assertTrue(provider.matches(".* 30 +- +120\\.0$"), provider);
    assertTrue(none.matches(".* 30 +40 +120\\.0$"), none);
  }

  @Test
  void aModesExtraCpuIsTakenAgainstTheBaselineTurnsInItsOwnProcessesWhereItHasThem() {
    List<Measurement> rows = new ArrayList<>();
    for (int round = 1; round <= 3; round++) {
      rows.add(row("none", round, 1000, 1000));
      rows.add(row("tls-jsse", round, 1000, 1200));
      rows.add(row("tls-jsse/none", round, 1000, 1100));
    }
    List<ModeSummary> summaries = new ArrayList<>();
    for (String m : List.of("none", "tls-jsse")) {
      summaries.add(ModeSummary.of("threadpool", m, rows.stream().filter(r -> r.variant().equals(m)).toList(),
          Interval.unbounded(0), Interval.unbounded(0)));
    }
    RunInfo info = new RunInfo("abc123", "jdk", 2, 0.1, 0.2, Instant.EPOCH, Duration.ofSeconds(9));
    BenchReport report = new BenchReport("settings", Map.of(), info, StoppingRule.fixed(3),
        StoppingRule.Decision.ROUNDS_DONE, IngestBenchmark.CPU, "none", summaries, List.of(), rows,
        Map.of("tls-jsse", new RecordCost(500, 400, "TLS_AES_128_GCM_SHA256")));
    // 12,000 us/MB against the 11,000 of none's turns in tls-jsse's own JVMs, not the 10,000 of none's own JVMs.
    String line = report.results().summaryCsv().lines().filter(l -> l.startsWith("tls-jsse,")).findFirst()
        .orElseThrow();
    assertTrue(line.endsWith(",1000.000,2000.000,600.000,480.000,TLS_AES_128_GCM_SHA256"), line);
  }

  @Test
  void modesOutsideThePrecisionAreNamedWhenTimeRunsOut() {
    // A backend that cannot read a side's CPU stops on wall time, where sasl-auth's varying cost misses the target.
    BenchReport report = report(new StoppingRule(3, Duration.ofMinutes(4), 3, 0), StoppingRule.Decision.OUT_OF_TIME,
        IngestBenchmark.WALL);
    String table = report.table();
    assertTrue(table.contains("stopped: --max-time 240 s would be passed by another round (4 rounds, 90 s in all);"
        + " wall-time not within +/-3.0 points: threadpool sasl-auth (+/-"), table);
    assertEquals(List.of("sasl-auth"), report.unmet().stream().map(Overhead::variant).toList());
    assertTrue(report.results().summaryCsv().lines().filter(l -> l.startsWith("sasl-auth,")).findFirst().orElseThrow()
        .contains(",false,"));
  }

  @Test
  void theCpuMetricLeavesOutTheJitCompilersButTheRawRowKeepsIt() {
    IngestResult result = new IngestResult(1_000_000, 100_000_000, 500_000_000, 0);
    ProcessSample client = new ProcessSample(900_000_000, 800_000_000, 100_000_000, 0, 0, 2, 5, 150_000_000);
    ProcessSample server = new ProcessSample(450_000_000, 400_000_000, 50_000_000, 0, 0, 1, 2, 50_000_000);
    Measurement row = IterationRow.of("threadpool", "tls-jsse", 0, 1, result, new TargetSample(client, server),
        new VerifyResult(900_000, 100_000, 0, 0, List.of()));
    assertEquals(900.0, row.value("client_cpu_ms"));
    assertEquals(150.0, row.value("client_jit_ms"));
    assertEquals((750 + 400) / 1e6, IterationRow.cpuPerEntry(row), 1e-12);
    ProcessSample unknownJit = new ProcessSample(450_000_000, 400_000_000, 50_000_000, 0, 0, 1, 2,
        ProcessSample.UNKNOWN);
    Measurement noJit = IterationRow.of("threadpool", "tls-jsse", 0, 1, result, new TargetSample(client, unknownJit),
        new VerifyResult(900_000, 100_000, 0, 0, List.of()));
    assertEquals((750 + 450) / 1e6, IterationRow.cpuPerEntry(noJit), 1e-12, "an unknown JIT share stays in");
  }

  @Test
  void writesSummaryRawRowsJsonAndASelfContainedChart() throws Exception {
    List<Path> files = report(StoppingRule.fixed(4), StoppingRule.Decision.ROUNDS_DONE, IngestBenchmark.CPU)
        .write(dir);
    assertEquals(4, files.size());
    List<String> raw = Files.readAllLines(dir.resolve("ingest-iterations.csv"));
    assertEquals(1 + 13, raw.size(), "a warm-up and four rounds of three modes");
    assertTrue(raw.get(0).startsWith("server,mode,round,fork,wall_ms,entries,payload_bytes,client_cpu_ms,"
        + "client_user_ms,client_sys_ms,client_jit_ms,client_gc_ms,client_gc_count,client_read_bytes,"
        + "client_written_bytes,server_cpu_ms,"),
        raw.get(0));
    assertTrue(raw.get(0).endsWith(",referenced,unreferenced,undefined,corrupt"), raw.get(0));
    ResultsFile json = ResultsFile.fromJson(Files.readString(dir.resolve("ingest-results.json")));
    assertEquals(13, json.rows().size());
    assertEquals(4, json.overheads().size(), "wall and cpu of tls-jsse and sasl-auth");
    assertEquals("abc123", json.info().get("commit"));
    String html = Files.readString(dir.resolve("ingest-results.html"));
    assertTrue(html.contains("class=\"error-bar\"") && html.contains("class=\"reference\" data-value=\"5.920\"")
        && html.contains("class=\"cost-bar\"") && !html.contains("<script"), html);
  }
}
