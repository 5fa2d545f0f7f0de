package io.securethrift.zkbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.ProcessSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One iteration's raw row: its columns from the client's answer and the processes' samples, and the metrics. */
class ZkRowTest {
  /** 2.5 s of CPU, 0.5 s of it the JIT's; 12 ms of GC in 3 collections; 1,000 bytes read, 2,000 written. */
  private static final ProcessSample CLIENT = new ProcessSample(2_500_000_000L, 2_000_000_000L, 500_000_000L, 1000,
      2000, 3, 12, 500_000_000L);
  /** 1 s of CPU; no JIT figure, no GC or I/O figures. */
  private static final ProcessSample SERVERS = new ProcessSample(1_000_000_000L, 700_000_000L, 300_000_000L,
      ProcessSample.UNKNOWN, ProcessSample.UNKNOWN, ProcessSample.UNKNOWN, ProcessSample.UNKNOWN,
      ProcessSample.UNKNOWN);

  @Test
  void columnsAreNamedForPhasesAndSyncPercentiles() {
    assertEquals("create_eph_ms", ZkRow.phaseColumn("create-eph"));
    assertEquals("watch_ms", ZkRow.phaseColumn("watch"));
    assertEquals("sync_delete_p99_us", ZkRow.syncColumn("delete", 99));
  }

  @Test
  void rowSumsThePhasesAndCountsOperationsFromTheZnodes() {
    Measurement m = row(null);
    assertEquals("quorum-tls", m.group());
    assertEquals("tls13-jsse", m.variant());
    assertEquals(4, m.round());
    assertEquals(1.0, m.value(ZkRow.FORK));
    assertEquals(450.0, m.value(ZkRow.WALL_MS), "10 + 20 + ... + 90 ms of the nine phases");
    assertEquals(1100.0, m.value(ZkRow.OPS), "11 operations per znode");
    assertEquals(200.0, m.value(ZkRow.SYNC_OPS), "4 request types x 50 znodes");
    assertEquals(80.0, m.value(ZkRow.SYNC_MS));
    assertEquals(90.0, m.value("watch_ms"));
    assertEquals(40.0, m.value("delete_ms"));
    assertEquals(103.0, m.value(ZkRow.syncColumn("delete", 99)));
    assertEquals(50.0, m.value(ZkRow.syncColumn("create", 50)));
  }

  @Test
  void eachSidesSampleBecomesMillisecondsAndAnUnknownValueNotANumber() {
    Measurement m = row(null);
    assertEquals(2500.0, m.value("client_cpu_ms"));
    assertEquals(2000.0, m.value("client_user_ms"));
    assertEquals(500.0, m.value("client_sys_ms"));
    assertEquals(500.0, m.value("client_jit_ms"));
    assertEquals(12.0, m.value("client_gc_ms"));
    assertEquals(3.0, m.value("client_gc_count"));
    assertEquals(1000.0, m.value("client_read_bytes"));
    assertEquals(2000.0, m.value("client_written_bytes"));
    assertEquals(1000.0, m.value("server_cpu_ms"));
    for (String unknown : List.of("server_jit_ms", "server_gc_ms", "server_gc_count", "server_read_bytes",
        "server_written_bytes")) {
      assertTrue(Double.isNaN(m.value(unknown)), unknown);
      assertTrue(m.values().containsKey(unknown), "the column is there, empty: " + unknown);
    }
  }

  @Test
  void sessionColumnsAreWhatTheSessionsAnswerHas() {
    Measurement none = row(null);
    for (String column : List.of(ZkRow.SESSION_MS, ZkRow.HANDSHAKE_FIRST_MS, ZkRow.HANDSHAKE_LATER_MS,
        ZkRow.HANDSHAKES_RESUMED)) {
      assertTrue(Double.isNaN(none.value(column)), column);
    }
    Measurement plain = row(LineRecord.of("SESSIONS").with(ZkRow.SESSION_MS, 12.5));
    assertEquals(12.5, plain.value(ZkRow.SESSION_MS));
    assertTrue(Double.isNaN(plain.value(ZkRow.HANDSHAKE_FIRST_MS)), "no handshake figure in plaintext");
    Measurement tls = row(LineRecord.of("SESSIONS").with(ZkRow.SESSION_MS, 14).with(ZkRow.HANDSHAKE_FIRST_MS, 9.5)
        .with(ZkRow.HANDSHAKE_LATER_MS, 2.25).with(ZkRow.HANDSHAKES_RESUMED, 0.9));
    assertEquals(List.of(14.0, 9.5, 2.25, 0.9), List.of(tls.value(ZkRow.SESSION_MS),
        tls.value(ZkRow.HANDSHAKE_FIRST_MS), tls.value(ZkRow.HANDSHAKE_LATER_MS), tls.value(ZkRow.HANDSHAKES_RESUMED)));
  }

  @Test
  void metricsArePerOperationAndLeaveTheJitOutWhereItIsKnown() {
    Measurement m = row(null);
    assertEquals(450.0 / 1100, ZkRow.wallPerOp(m), 1e-15);
    assertEquals(80.0 / 200, ZkRow.syncPerOp(m), 1e-15);
    // Client 2,500 - 500 ms of JIT, servers 1,000 ms (JIT unknown: all of it), over 1,100 + 200 operations.
    assertEquals(3000.0 / 1300, ZkRow.cpuPerOp(m), 1e-15);
    assertEquals(2000.0 * 1e3 / 1300, ZkRow.usPerOp(m, ZkRow.CLIENT), 1e-9);
    assertEquals(1000.0 * 1e3 / 1300, ZkRow.usPerOp(m, ZkRow.SERVER), 1e-9);
  }

  @Test
  void describeIsTheProgressLine() {
    assertEquals("1,100 ops in 450 ms, 200 sync in 80 ms, CPU client 2,500 ms servers 1,000 ms",
        ZkRow.describe(row(null)));
  }

  /** Fork 1, round 4 of 100 znodes and 50 synchronous ones; phases of 10 to 90 ms. */
  private static Measurement row(LineRecord sessions) {
    LineRecord answer = LineRecord.of("OK").with(ZkRow.SYNC_MS, 80);
    List<String> phases = new ArrayList<>(Workload.PHASES);
    for (int i = 0; i < phases.size(); i++) {
      answer.with(ZkRow.phaseColumn(phases.get(i)), 10 * (i + 1));
    }
    int i = 0;
    for (String op : Workload.SYNC_OPS) {
      answer.with(ZkRow.syncColumn(op, 50), 50 + i).with(ZkRow.syncColumn(op, 99), 100 + i);
      i++;
    }
    return ZkRow.of("quorum-tls", "tls13-jsse", 1, 4, 100, 50, answer, CLIENT, SERVERS, sessions);
  }
}
