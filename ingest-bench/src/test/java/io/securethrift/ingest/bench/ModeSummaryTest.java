package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A mode's summary columns from known raw rows: medians over rounds of odd and even counts, CPU per entry and per MB
 * without the JIT's share, the wire bytes of each side's direction, and NaN (never zero) where a side was not sampled.
 */
class ModeSummaryTest {
  private static final VerifyResult CLEAN = new VerifyResult(900, 100, 0, 0, List.of());

  /**
   * One iteration of {@code entries} entries of 100 bytes each in {@code wallMs}; the client used {@code clientMs} CPU
   * of which a tenth was its JIT, the server twice the client's with no JIT.
   */
  private static Measurement row(int round, long entries, double wallMs, long clientMs) {
    IngestResult result = new IngestResult(entries, entries * 100, (long) (wallMs * 1e6), clientMs * 1_000_000);
    ProcessSample client = new ProcessSample(clientMs * 1_000_000, clientMs * 1_000_000, 0, 5_000,
        entries * 120, round, 10L * round, clientMs * 100_000);
    ProcessSample server = new ProcessSample(2 * clientMs * 1_000_000, 2 * clientMs * 1_000_000, 0, entries * 120,
        5_000, 2L * round, 20L * round, 0);
    return IterationRow.of("threadpool", "tls-jsse", round % 2, round, result, new TargetSample(client, server),
        CLEAN);
  }

  @Test
  void anOddNumberOfRoundsTakesTheMiddleOneOfEachColumn() {
    List<Measurement> rows = List.of(row(1, 1_000_000, 1000, 1000), row(2, 1_000_000, 3000, 3000),
        row(3, 1_000_000, 2000, 2000));
    ModeSummary s = ModeSummary.of("threadpool", "tls-jsse", rows, new Interval(10, 8, 12), new Interval(20, 18, 22));

    assertEquals(3, s.rounds());
    assertEquals(2000, s.wallMs());
    assertEquals(1_000_000, s.entries());
    assertEquals(500_000, s.entriesPerSecond(), 1e-6, "1,000,000 entries in 2 s");
    assertEquals(50, s.megabytesPerSecond(), 1e-9, "100 MB in 2 s");
    // The JIT's tenth is left out: 2,000 ms of client CPU less 200 ms, over 1,000,000 entries.
    assertEquals(1.8, s.clientUsPerEntry(), 1e-9);
    assertEquals(4.0, s.serverUsPerEntry(), 1e-9);
    assertEquals(18_000, s.clientUsPerMb(), 1e-6);
    assertEquals(40_000, s.serverUsPerMb(), 1e-6);
    assertEquals(20, s.clientGcMs());
    assertEquals(40, s.serverGcMs());
    assertEquals(120, s.clientWireMb(), 1e-9, "what the client wrote");
    assertEquals(120, s.serverWireMb(), 1e-9, "what the server read");
    assertEquals(100, s.payloadMb(), 1e-9, "1,000,000 entries of 100 bytes");
    assertEquals(new Interval(10, 8, 12), s.wallOverhead());
    assertEquals(new Interval(20, 18, 22), s.cpuOverhead());
  }

  @Test
  void anEvenNumberOfRoundsAveragesTheTwoMiddleOnes() {
    List<Measurement> rows = List.of(row(1, 1000, 40, 1), row(2, 1000, 10, 1), row(3, 1000, 30, 1),
        row(4, 1000, 20, 1));
    ModeSummary s = ModeSummary.of("threadpool", "none", rows, Interval.unbounded(0), Interval.unbounded(0));
    assertEquals(25, s.wallMs());
    // Throughput is the median of each round's own rate, not the rate of the median wall time.
    double[] rates = {1000 / 0.040, 1000 / 0.010, 1000 / 0.030, 1000 / 0.020};
    assertEquals((rates[2] + rates[3]) / 2, s.entriesPerSecond(), 1e-6);
    assertEquals(25.0, s.clientGcMs(), "rounds 2 and 3: 20 and 30 ms");
  }

  @Test
  void aSideThatCouldNotBeSampledIsNaNNotZero() {
    IngestResult result = new IngestResult(1000, 100_000, 50_000_000, 0);
    ProcessSample client = new ProcessSample(10_000_000, 10_000_000, 0, 0, 120_000, 1, 1, 0);
    Measurement remote = IterationRow.of("threadpool", "sasl-auth", 0, 1, result,
        new TargetSample(client, ProcessSample.unknown()), CLEAN);
    assertTrue(Double.isNaN(remote.value("server_cpu_ms")));
    assertTrue(Double.isNaN(remote.value("server_gc_count")));
    assertTrue(Double.isNaN(remote.value("server_read_bytes")));
    assertEquals(10.0, remote.value("client_cpu_ms"));
    assertTrue(Double.isNaN(IterationRow.cpuPerEntry(remote)), "a CPU metric without the server's CPU is none");
    assertEquals(0.05, IterationRow.wallPerEntry(remote), 1e-12, "50 ms over 1,000 entries");

    Measurement sampled = IterationRow.of("threadpool", "sasl-auth", 0, 2, result,
        new TargetSample(client, client), CLEAN);
    ModeSummary s = ModeSummary.of("threadpool", "sasl-auth", List.of(remote, sampled), Interval.unbounded(1),
        Interval.unbounded(Double.NaN));
    assertTrue(Double.isNaN(s.serverUsPerEntry()), "one unsampled round makes the median unknown");
    assertTrue(Double.isNaN(s.serverGcMs()));
    assertEquals(10, s.clientUsPerEntry(), 1e-9, "the client side was sampled in both rounds");
  }

  @Test
  void noRowsAtAllSummariseAsUnknown() {
    ModeSummary s = ModeSummary.of("nonblocking", "none", List.of(), Interval.unbounded(0), Interval.unbounded(0));
    assertEquals(0, s.rounds());
    assertTrue(Double.isNaN(s.wallMs()) && Double.isNaN(s.entriesPerSecond()) && Double.isNaN(s.clientWireMb()));
  }

  @Test
  void theMapHasTheCsvColumnsInOrderWithTheIntervalsSpelledOut() {
    ModeSummary s = ModeSummary.of("threadpool", "tls-jsse", List.of(row(1, 1000, 10, 1)), new Interval(5, 4, 6),
        Interval.unbounded(7));
    Map<String, Object> m = s.toMap(false);
    assertEquals(List.of("mode", "server", "rounds", "median_wall_ms", "median_entries", "entries_per_s",
        "mb_per_s", "wall_overhead_pct", "wall_overhead_low", "wall_overhead_high", "cpu_overhead_pct",
        "cpu_overhead_low", "cpu_overhead_high", "client_cpu_us_per_entry", "server_cpu_us_per_entry",
        "client_cpu_us_per_mb", "server_cpu_us_per_mb", "client_gc_ms", "server_gc_ms", "client_wire_mb",
        "server_wire_mb", "payload_mb", "precision_met"), List.copyOf(m.keySet()));
    assertEquals("tls-jsse", m.get("mode"));
    assertEquals("threadpool", m.get("server"));
    assertEquals(1, m.get("rounds"));
    assertEquals(5.0, m.get("wall_overhead_pct"));
    assertEquals(4.0, m.get("wall_overhead_low"));
    assertEquals(6.0, m.get("wall_overhead_high"));
    assertEquals(7.0, m.get("cpu_overhead_pct"));
    assertTrue(Double.isNaN((Double) m.get("cpu_overhead_low")), "an unbounded interval has no bounds");
    assertEquals(false, m.get("precision_met"));
    assertEquals(true, s.toMap(true).get("precision_met"));
  }

  @Test
  void theBaselinesOverheadIsZeroAndAMissingOneIsNaN() {
    List<Overhead> overheads = List.of(
        new Overhead("threadpool", "tls-jsse", IngestBenchmark.WALL, new double[] {1.1}, new Interval(10, 9, 11)),
        new Overhead("threadpool", "tls-jsse", IngestBenchmark.CPU, new double[] {1.2}, new Interval(20, 19, 21)),
        new Overhead("nonblocking", "tls-jsse", IngestBenchmark.WALL, new double[] {1.3}, new Interval(30, 29, 31)));
    assertEquals(Interval.unbounded(0),
        BenchReport.overheadOf(overheads, "threadpool", "none", IngestBenchmark.WALL, "none"));
    assertEquals(new Interval(10, 9, 11),
        BenchReport.overheadOf(overheads, "threadpool", "tls-jsse", IngestBenchmark.WALL, "none"));
    assertEquals(new Interval(20, 19, 21),
        BenchReport.overheadOf(overheads, "threadpool", "tls-jsse", IngestBenchmark.CPU, "none"));
    assertEquals(new Interval(30, 29, 31),
        BenchReport.overheadOf(overheads, "nonblocking", "tls-jsse", IngestBenchmark.WALL, "none"),
        "each server model's own");
    Interval missing = BenchReport.overheadOf(overheads, "nonblocking", "tls-jsse", IngestBenchmark.CPU, "none");
    assertTrue(Double.isNaN(missing.estimate()) && !missing.bounded());
  }
}
