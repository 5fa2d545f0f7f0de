package io.securethrift.ingest.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.ingest.bench.FaultBench;
import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.bench.FaultBench.Outcome;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest-bench --backend accumulo --faults} on a real Accumulo 2.1 MiniAccumuloCluster with a real KDC: the
 * tablet server killed with SIGKILL twice while Accumulo's BatchWriter writes through its Kerberos auth-conf SASL
 * connections, and every acknowledged entry read back after the write-ahead log's recovery.
 */
class AccumuloFaultsTest {
  /**
   * Short, as CI time is: the first kill comes 1.8 s into the writing; the second waits for the tablet server's
   * recovery (at least the 15 s in which the manager declares a killed server dead), by when the writing has ended,
   * so it tests what a crash after the last acknowledgement keeps.
   */
  private static final FaultBench.Settings SHORT = new FaultBench.Settings(Duration.ofSeconds(6), 500, 128 * 1024,
      3, FaultBench.Settings.DEFAULT.retry(), ServerModel.THREADPOOL);

  @TempDir
  Path dir;

  @Test
  @Tag("minicluster")
  void killedTabletServerRecoversEveryAcknowledgedEntry() throws Exception {
    Outcome outcome = FaultBench.run(new AccumuloFaults(), "sasl-auth-conf", Fault.RESTART, dir, SHORT, 42,
        Map.of());

    System.out.println(outcome.line());
    assertTrue(outcome.passed(), outcome.line());
    assertTrue(outcome.landed() >= 1, "a kill must land while the ingest runs: " + outcome.line());
    assertEquals(outcome.written(), outcome.received(), "every acknowledged entry is in the table: " + outcome.line());
    // A kill holds the writer up until the manager declares the server dead and its log is recovered.
    assertTrue(outcome.cost().nanosLost() > Duration.ofSeconds(1).toNanos(), outcome.line());
    assertTrue(outcome.cost().retries().isEmpty() && outcome.line().contains("retries=n/a"), outcome.line());
  }

  @Test
  void faultsThatCannotHappenInAModeSayWhy() {
    AccumuloFaults faults = new AccumuloFaults();
    assertEquals(Optional.of("mode sasl-auth uses no certificates (rotate runs in tls-jsse and tls-conscrypt)"),
        faults.notApplicable("sasl-auth", Fault.ROTATE));
    assertEquals(Optional.of("mode tls-jsse uses no Kerberos (expire runs in the sasl-* modes)"),
        faults.notApplicable("tls-jsse", Fault.EXPIRE));
    assertEquals(Optional.empty(), faults.notApplicable("none", Fault.NET));
    assertEquals(Optional.empty(), faults.notApplicable("sasl-auth-int", Fault.KDC));
    assertEquals(Optional.of("this backend does not move its cluster's processes and batch writer to TLS one at a"
        + " time (tls-on runs on the embedded backend)"), faults.notApplicable("tls-jsse", Fault.TLS_ON));
  }

  @Test
  void existingInstanceIsRefused() {
    ConfigException e = assertThrows(ConfigException.class, () -> FaultBench.run(new AccumuloFaults(), "none",
        Fault.RESTART, dir, SHORT, 42, Map.of(AccumuloBackend.CLIENT_PROPERTIES, "/nowhere")));
    assertTrue(e.getMessage().contains("MiniAccumuloCluster of their own"), e.getMessage());
  }
}
