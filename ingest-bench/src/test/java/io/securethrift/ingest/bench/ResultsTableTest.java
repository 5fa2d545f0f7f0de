package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest-bench docs}' table, read back from the JSON a run wrote: the run's line and one row per server and
 * mode, the baseline named as such, an interval without bounds shown as such, and a side no backend could sample shown
 * as unknown rather than as a number.
 */
class ResultsTableTest {
  @TempDir
  Path dir;

  private static ModeSummary summary(String server, String mode, int rounds, Interval wall, Interval cpu,
      double serverUsPerEntry, double serverGcMs) {
    return new ModeSummary(server, mode, rounds, 1250, 1_000_000, 800_000, 76.5, 1.234, serverUsPerEntry, 12_340,
        serverUsPerEntry * 10_000, 31.6, serverGcMs, 120.04, 119.96, 100, wall, cpu);
  }

  private static BenchReport report(List<ModeSummary> summaries, StoppingRule.Decision decision) {
    RunInfo info = new RunInfo("0123abc", "17.0.9+9", 2, 0.25, 1.75, Instant.parse("2024-05-01T10:00:00Z"),
        Duration.ofSeconds(283));
    return new BenchReport("settings", Map.of("seed", 42), info, StoppingRule.fixed(5), decision,
        IngestBenchmark.CPU, "none", summaries, List.of(), List.<Measurement>of(), Map.of());
  }

  /** The table as {@code ingest-bench docs} prints it: from the file on disk, not from the objects that wrote it. */
  private String markdownFromDisk(BenchReport report) throws Exception {
    report.write(dir);
    return ResultsTable.markdown(ResultsFile.read(dir.resolve("ingest-results.json"), ResultsTable.TOOL));
  }

  @Test
  void theRunsLineAndOneRowPerModeWithTheBaselineNamed() throws Exception {
    String table = markdownFromDisk(report(List.of(
        summary("threadpool", "none", 5, Interval.unbounded(0), Interval.unbounded(0), 2.5, 40.4),
        summary("threadpool", "tls-jsse", 5, new Interval(10.04, 8.96, 11.15), new Interval(21.5, 19.25, 23.75),
            3.1, 44.6)), StoppingRule.Decision.ROUNDS_DONE));

    List<String> lines = table.lines().toList();
    assertEquals("Commit 0123abc, 17.0.9+9, 2 cores, started 2024-05-01T10:00:00Z, load average 0.3 → 1.8, 283 s in"
        + " all; stopped: ROUNDS_DONE.", lines.get(0));
    assertEquals("", lines.get(1));
    assertEquals("| server | mode | rounds | wall overhead [95 %] | CPU/entry overhead [95 %] | client µs/entry"
        + " | server µs/entry | client / server GC ms | wire MB |", lines.get(2));
    assertEquals("|---|---|---|---|---|---|---|---|---|", lines.get(3));
    assertEquals("| threadpool | none | 5 | baseline | baseline | 1.23 | 2.50 | 32 / 40 | 120.0 |", lines.get(4));
    assertEquals("| threadpool | tls-jsse | 5 | +10.0 % [+9.0, +11.2] | +21.5 % [+19.3, +23.8] | 1.23 | 3.10"
        + " | 32 / 45 | 120.0 |", lines.get(5));
    assertEquals(6, lines.size());
  }

  @Test
  void anIntervalWithoutBoundsReadsBackAsSuch() throws Exception {
    // Fewer rounds than an interval needs: the JSON holds null bounds, which must not turn into numbers.
    String table = markdownFromDisk(report(List.of(
        summary("nonblocking", "none", 2, Interval.unbounded(0), Interval.unbounded(0), 2, 1),
        summary("nonblocking", "sasl-auth", 2, Interval.unbounded(13.16), Interval.unbounded(-2.5), 2, 1)),
        StoppingRule.Decision.OUT_OF_TIME));
    assertTrue(table.contains("| nonblocking | sasl-auth | 2 | +13.2 % [n/a] | -2.5 % [n/a] |"), table);
    assertTrue(table.lines().findFirst().orElseThrow().endsWith("stopped: OUT_OF_TIME."), table);
  }

  @Test
  void aServerSideNoBackendCouldSampleIsShownAsUnknown() throws Exception {
    // The Accumulo backend cannot read a remote tablet server's CPU or GC: NaN in the summary, null in the JSON.
    String table = markdownFromDisk(report(List.of(
        summary("threadpool", "none", 5, Interval.unbounded(0), Interval.unbounded(0), Double.NaN, Double.NaN)),
        StoppingRule.Decision.ROUNDS_DONE));
    String row = table.lines().filter(l -> l.startsWith("| threadpool | none |")).findFirst().orElseThrow();
    assertEquals("| threadpool | none | 5 | baseline | baseline | 1.23 | n/a | 32 / n/a | 120.0 |", row);
  }

  @Test
  void serversOfOneRunEachHaveTheirRowsInOrder() throws Exception {
    String table = markdownFromDisk(report(List.of(
        summary("threadpool", "none", 3, Interval.unbounded(0), Interval.unbounded(0), 2, 1),
        summary("threadpool", "tls-jsse", 3, new Interval(5, 4, 6), new Interval(6, 5, 7), 2, 1),
        summary("nonblocking", "none", 3, Interval.unbounded(0), Interval.unbounded(0), 2, 1),
        summary("nonblocking", "tls-jsse", 3, new Interval(7, 6, 8), new Interval(8, 7, 9), 2, 1)),
        StoppingRule.Decision.ROUNDS_DONE));
    List<String> rows = table.lines().filter(l -> l.startsWith("| threadpool") || l.startsWith("| nonblocking"))
        .map(l -> l.split(" \\| ")[0] + " " + l.split(" \\| ")[1] + " " + l.split(" \\| ")[3]).toList();
    assertEquals(List.of("| threadpool none baseline", "| threadpool tls-jsse +5.0 % [+4.0, +6.0]",
        "| nonblocking none baseline", "| nonblocking tls-jsse +7.0 % [+6.0, +8.0]"), rows);
  }

  @Test
  void aResultOfAnotherToolIsRefusedByName() throws Exception {
    Path other = dir.resolve("zk-results.json");
    Files.writeString(other, report(List.of(summary("threadpool", "none", 1, Interval.unbounded(0),
        Interval.unbounded(0), 1, 1)), StoppingRule.Decision.ROUNDS_DONE).results().toJson()
        .replace("\"tool\": \"ingest-bench\"", "\"tool\": \"zk-bench\""));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ResultsFile.read(other, ResultsTable.TOOL));
    assertEquals(other + " was written by zk-bench, not ingest-bench", e.getMessage());
  }
}
