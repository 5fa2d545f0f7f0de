package io.securethrift.zkbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.ProcessSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client's {@code TURNS} answer, from the two sides' workload results to the raw rows the report is made of:
 * each side's columns under its prefix, read back apart without the other's, its phases summed into the wall time,
 * its synchronous requests as nearest-rank percentiles in microseconds, and what each side used in the client and in
 * the ensemble.
 */
class ZkTurnsTest {
  private static final ProcessSample SECURED_CLIENT = new ProcessSample(2_000_000_000L, 1_500_000_000L,
      500_000_000L, 10_000, 20_000, 4, 16, 300_000_000L);
  private static final ProcessSample SECURED_SERVERS = new ProcessSample(3_000_000_000L, 2_000_000_000L,
      1_000_000_000L, 30_000, 40_000, 6, 24, ProcessSample.UNKNOWN);
  private static final ProcessSample BASELINE_CLIENT = new ProcessSample(1_000_000_000L, 800_000_000L,
      200_000_000L, 5_000, 6_000, 1, 2, 100_000_000L);
  private static final ProcessSample BASELINE_SERVERS = ProcessSample.unknown();

  /**
   * A side's result: phase i took {@code scale * (i + 1)} ms; the synchronous requests of each type took 1 to 100
   * microseconds times {@code scale}, in reverse order.
   */
  private static Workload.Result result(double scale) {
    Workload.Result r = new Workload.Result();
    for (int i = 0; i < Workload.PHASES.size(); i++) {
      r.phaseMs[i] = scale * (i + 1);
    }
    for (int op = 0; op < Workload.SYNC_OPS.size(); op++) {
      long[] nanos = new long[100];
      for (int i = 0; i < nanos.length; i++) {
        nanos[i] = (long) (scale * (100 - i) * 1000) + op;
      }
      r.syncNanos[op] = nanos;
    }
    return r;
  }

  /** The answer as {@link TakingTurns#run} builds it, through the pipe it travels. */
  private static LineRecord turns() {
    LineRecord r = LineRecord.of(BenchClientMain.TURNS);
    BenchClientMain.columns(r, TakingTurns.SECURED, result(2));
    SECURED_CLIENT.fields(TakingTurns.SECURED + "client.").forEach(r::with);
    SECURED_SERVERS.fields(TakingTurns.SECURED + "servers.").forEach(r::with);
    BenchClientMain.columns(r, TakingTurns.BASELINE, result(1));
    BASELINE_CLIENT.fields(TakingTurns.BASELINE + "client.").forEach(r::with);
    BASELINE_SERVERS.fields(TakingTurns.BASELINE + "servers.").forEach(r::with);
    return LineRecord.parse(r.encode());
  }

  @Test
  void eachSidesColumnsReadBackWithoutItsPrefixAndWithoutTheOthers() {
    LineRecord turns = turns();
    LineRecord secured = TakingTurns.columns(turns, TakingTurns.SECURED);
    LineRecord baseline = TakingTurns.columns(turns, TakingTurns.BASELINE);
    assertEquals("RESULT", secured.kind());
    // Nine phases, two percentiles of four request types, the synchronous total, and 8 figures of each process.
    assertEquals(9 + 8 + 1 + 2 * 8, secured.fields().size(), secured.encode());
    assertEquals(secured.fields().keySet(), baseline.fields().keySet());
    assertTrue(secured.fields().keySet().stream().noneMatch(k -> k.startsWith(TakingTurns.SECURED)
        || k.startsWith(TakingTurns.BASELINE)), secured.encode());
    assertEquals("2000000000", secured.get("client.cpu"));
    assertEquals("1000000000", baseline.get("client.cpu"));
    assertEquals("2.000", secured.get("create_ms"));
    assertEquals("18.000", secured.get("watch_ms"));
    assertEquals("1.000", baseline.get("create_ms"));
    assertEquals("9.000", baseline.get("watch_ms"));
  }

  @Test
  void syncPercentilesAreNearestRankInMicrosecondsAndTheTotalIsInMilliseconds() {
    LineRecord baseline = TakingTurns.columns(turns(), TakingTurns.BASELINE);
    // 100 requests of 1 to 100 us (plus the type's index in ns): the 50th and the 99th smallest.
    assertEquals("50.000", baseline.get(ZkRow.syncColumn("create", 50)));
    assertEquals("99.000", baseline.get(ZkRow.syncColumn("create", 99)));
    assertEquals("50.003", baseline.get(ZkRow.syncColumn("delete", 50)));
    assertEquals("99.003", baseline.get(ZkRow.syncColumn("delete", 99)));
    // 4 types x (1 + ... + 100) us, plus 100 x (0 + 1 + 2 + 3) ns.
    assertEquals("20.201", baseline.get(ZkRow.SYNC_MS));
    assertEquals("40.401", TakingTurns.columns(turns(), TakingTurns.SECURED).get(ZkRow.SYNC_MS));
  }

  @Test
  void eachSidesProcessesReadBackAsSampledUnknownsIncluded() {
    LineRecord turns = turns();
    assertEquals(SECURED_CLIENT, TakingTurns.client(turns, TakingTurns.SECURED));
    assertEquals(SECURED_SERVERS, TakingTurns.servers(turns, TakingTurns.SECURED));
    assertEquals(BASELINE_CLIENT, TakingTurns.client(turns, TakingTurns.BASELINE));
    assertEquals(ProcessSample.unknown(), TakingTurns.servers(turns, TakingTurns.BASELINE));
  }

  @Test
  void theSidesBecomeRowsWhoseMetricsComeFromTheirOwnTurns() {
    LineRecord turns = turns();
    Measurement secured = ZkRow.of("client-tls", "tls13-jsse", 1, 3, 100, 100,
        TakingTurns.columns(turns, TakingTurns.SECURED), TakingTurns.client(turns, TakingTurns.SECURED),
        TakingTurns.servers(turns, TakingTurns.SECURED), null);
    Measurement baseline = ZkRow.of("client-tls", "none", 1, 3, 100, 100,
        TakingTurns.columns(turns, TakingTurns.BASELINE), TakingTurns.client(turns, TakingTurns.BASELINE),
        TakingTurns.servers(turns, TakingTurns.BASELINE), null);

    assertEquals(2 * 45.0, secured.value(ZkRow.WALL_MS), "2 x (1 + ... + 9) ms");
    assertEquals(45.0, baseline.value(ZkRow.WALL_MS));
    assertEquals(1100.0, secured.value(ZkRow.OPS));
    assertEquals(400.0, secured.value(ZkRow.SYNC_OPS));
    assertEquals(2 * 45.0 / 1100, ZkRow.wallPerOp(secured), 1e-12);
    assertEquals(40.401 / 400, ZkRow.syncPerOp(secured), 1e-12);
    // Secured: client 2,000 ms less its JIT's 300; servers 3,000 ms with no JIT figure; over 1,100 + 400 operations.
    assertEquals((1700 + 3000) / 1500.0, ZkRow.cpuPerOp(secured), 1e-12);
    assertEquals(1700 * 1e3 / 1500, ZkRow.usPerOp(secured, ZkRow.CLIENT), 1e-9);
    assertTrue(Double.isNaN(ZkRow.cpuPerOp(baseline)), "the baseline's servers were not sampled");
    assertFalse(Double.isNaN(ZkRow.usPerOp(baseline, ZkRow.CLIENT)));
    assertEquals(16.0, secured.value("client_gc_ms"));
    assertEquals(24.0, secured.value("server_gc_ms"));
  }

  @Test
  void anAnswerMissingASidesColumnNamesIt() {
    LineRecord partial = LineRecord.parse("TURNS secured.create_ms=1.000");
    LineRecord secured = TakingTurns.columns(partial, TakingTurns.SECURED);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ZkRow.of("client-tls", "tls13-jsse", 0, 1, 1, 1, secured, ProcessSample.ZERO, ProcessSample.ZERO,
            null));
    assertEquals("RESULT record has no field 'set_ms': RESULT create_ms=1.000", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TakingTurns.client(partial, TakingTurns.SECURED));
    assertEquals(List.of(), List.copyOf(TakingTurns.columns(partial, TakingTurns.BASELINE).fields().keySet()),
        "nothing of the other side");
  }

  @Test
  void theQuantileIsNearestRankOnACopy() {
    long[] values = {50, 10, 40, 20, 30};
    assertEquals(10, Workload.quantile(values, 0));
    assertEquals(30, Workload.quantile(values, 0.5));
    assertEquals(50, Workload.quantile(values, 0.99));
    assertEquals(50, Workload.quantile(values, 1));
    assertEquals(20, Workload.quantile(values, 0.4), "rank ceil(0.4 x 5) = 2");
    assertEquals(List.of(50L, 10L, 40L, 20L, 30L), java.util.Arrays.stream(values).boxed().toList(),
        "the caller's array is not sorted in place");
    assertEquals(7, Workload.quantile(new long[] {7}, 0.99));
  }
}
