package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parts server-bench's figures are read with: percentiles, /proc readings, server kinds, rows. */
class ServerPartsTest {
  /** Above any Linux pid_max (at most 2^22), so no process has it. */
  private static final long NO_PROCESS = Integer.MAX_VALUE;

  @Test
  void percentilesAreNearestRankInMilliseconds() {
    Latencies l = new Latencies();
    for (long ms : new long[] {7, 3, 10, 1, 9, 2, 8, 4, 6, 5}) {
      l.add(ms * 1_000_000);
    }
    assertEquals(10, l.count());
    assertEquals(5.0, l.percentileMs(50), "rank ceil(5.0) = 5");
    assertEquals(6.0, l.percentileMs(51), "rank ceil(5.1) = 6");
    assertEquals(10.0, l.percentileMs(99), "rank ceil(9.9) = 10");
    assertEquals(10.0, l.percentileMs(100));
    assertEquals(1.0, l.percentileMs(0), "rank 0 is the smallest");
    assertEquals(1.0, l.percentileMs(10));
  }

  @Test
  void latenciesGrowPastTheirFirstArrayAndMerge() {
    Latencies a = new Latencies();
    Latencies b = new Latencies();
    for (int i = 1; i <= 1000; i++) {
      (i % 2 == 0 ? a : b).add(i * 1_000L);
    }
    a.addAll(b);
    assertEquals(1000, a.count());
    assertEquals(500, b.count(), "merging leaves the other as it was");
    assertEquals(0.5, a.percentileMs(50), "the 500th of 1 to 1000 µs");
    assertEquals(0.99, a.percentileMs(99), 1e-12);
    assertEquals(0.001, a.percentileMs(0.01), 1e-12);
    assertEquals(1.0, a.percentileMs(100), 1e-12);
  }

  @Test
  void noLatencyHasNoPercentile() {
    Latencies l = new Latencies();
    assertEquals(0, l.count());
    assertTrue(Double.isNaN(l.percentileMs(50)));
    l.addAll(new Latencies());
    assertTrue(Double.isNaN(l.percentileMs(99)));
  }

  @Test
  void procStatusReadsThisJvmsResidentMemoryAndThreads() {
    ProcStatus self = ProcStatus.of(ProcessHandle.current().pid());
    assertTrue(self.rssKb() > 1024, "a JVM's resident memory is megabytes: " + self);
    assertTrue(self.threads() >= 2, "main and the JVM's own threads: " + self);
  }

  @Test
  void procReadingsOfAMissingProcessSayWhatCouldNotBeRead() {
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> ProcStatus.of(NO_PROCESS));
    assertEquals("cannot read /proc/" + NO_PROCESS + "/status (server-bench measures processes on Linux only)",
        e.getMessage());
    assertThrows(IllegalStateException.class, () -> ProcCost.of(NO_PROCESS), "no process to sample");
  }

  @Test
  void procCostReadsThisJvmsCpuAndSwitchesAndSubtracts() {
    ProcCost self = ProcCost.of(ProcessHandle.current().pid());
    assertTrue(self.cpuNanos() > 0 && self.contextSwitches() > 0, self.toString());
    assertEquals(new ProcCost(60, 5), new ProcCost(100, 7).minus(new ProcCost(40, 2)));
    assertEquals(new ProcCost(0, 0), self.minus(self));
  }

  @Test
  void serverKindsAreReadByTokenAndKnowTheirWorkers() {
    assertEquals(ServerKind.THREADPOOL_64, ServerKind.parse("threadpool-64"));
    assertEquals(64, ServerKind.THREADPOOL_64.maxWorkers());
    assertEquals(Integer.MAX_VALUE, ServerKind.THREADPOOL.maxWorkers());
    assertTrue(ServerKind.nonblocking("nonblocking-inline") && ServerKind.nonblocking("nonblocking"));
    assertFalse(ServerKind.nonblocking("threadpool") || ServerKind.nonblocking("threadpool-64"));
    assertEquals("nonblocking-inline", ServerKind.NONBLOCKING_INLINE.toString());
    ConfigException e = assertThrows(ConfigException.class, () -> ServerKind.nonblocking("openssl"));
    assertEquals("server: 'openssl' is not a server; one of nonblocking, nonblocking-inline, threadpool-64,"
        + " threadpool", e.getMessage());
  }

  @Test
  void rowsKeepTheirFiguresInOrderAndAMissingOneIsNotANumber() {
    Row row = new Row("calls", "none", "threadpool", "4 conns x 1 KiB", new Row.Figures().put("b", 2).put("a", 1)
        .put("b", 3).map());
    assertEquals(List.of("b", "a"), List.copyOf(row.metrics().keySet()), "a figure set again keeps its place");
    assertEquals(3.0, row.get("b"));
    assertTrue(Double.isNaN(row.get("c")));
    assertThrows(UnsupportedOperationException.class, () -> row.metrics().put("c", 1.0));
    assertEquals(Map.of("a", 1.0, "b", 3.0), row.metrics());
  }

  @Test
  void everyModeButNoneHandshakesAndLoadsNameTheirSize() {
    assertEquals(List.of(false, true, true, true),
        ServerModes.MODES.all().stream().map(ServerModes::handshakes).toList());
    assertEquals("tls", ServerModes.TLS.name());
    assertEquals("100 B", ClosedLoop.sizeText(100));
    assertEquals("64 KiB", ClosedLoop.sizeText(64 * 1024));
    assertEquals("1536 B", ClosedLoop.sizeText(1536));
  }
}
