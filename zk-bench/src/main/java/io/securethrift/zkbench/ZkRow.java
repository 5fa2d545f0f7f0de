package io.securethrift.zkbench;

import io.securethrift.harness.Forks;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.ProcessSample;
import io.securethrift.core.testing.LineRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The raw row of one zk-bench iteration, its columns named here: the fork that ran it, the asynchronous phases' wall
 * time and operations (and each phase's time), the synchronous phase's total and p50/p99 latency per operation type,
 * the median time of a fresh session and, over TLS, the {@link HandshakeProbe}'s resumption figures, and each side's
 * CPU (user, system, and the JIT compiler's part of it), garbage collection and bytes through read and write system
 * calls, the server side summed over every server of the ensemble.
 */
final class ZkRow {
  /** Which of a mode's ensembles ran the iteration, counted from 0 ({@link ZkSettings#forks()}). */
  static final String FORK = Forks.COLUMN;
  static final String WALL_MS = "wall_ms";
  static final String OPS = "ops";
  static final String SYNC_MS = "sync_ms";
  static final String SYNC_OPS = "sync_ops";
  static final String SESSION_MS = "session_ms";
  static final String HANDSHAKE_FIRST_MS = "handshake_first_ms";
  static final String HANDSHAKE_LATER_MS = "handshake_later_ms";
  /** The share (0 to 1) of the probe's later handshakes that resumed the first one's session. */
  static final String HANDSHAKES_RESUMED = "handshakes_resumed";
  static final String GC_COUNT = ProcessSample.GC_COUNT;
  static final String GC_MS = ProcessSample.GC_MS;
  /** The JIT compiler threads' share of a side's CPU ({@link ProcessSample#jitNanos()}). */
  static final String JIT_MS = ProcessSample.JIT_MS;
  static final String CLIENT = "client_";
  static final String SERVER = "server_";
  static final String CPU_MS = ProcessSample.CPU_MS;
  /**
   * Operations of one asynchronous pass over N znodes: create, set, get, delete of permanent and of ephemeral
   * znodes (8 N), then the watch phase's creates, watched reads and deletes (3 N), zk-latencies' 11 N (110,000 for
   * its 10,000 znodes, the count of the published figure).
   */
  static final int OPS_PER_ZNODE = 11;

  private ZkRow() {}

  static String phaseColumn(String phase) {
    return phase.replace('-', '_') + "_ms";
  }

  static String syncColumn(String op, int percentile) {
    return "sync_" + op + "_p" + percentile + "_us";
  }

  /**
   * One iteration's row.
   *
   * @param answer the client's answer to {@code RUN}: phase and synchronous columns
   * @param client what the client process used during the iteration, its garbage collection included
   * @param servers what the ensemble's processes used together
   * @param sessions the client's answer to {@code SESSIONS}, null when none were opened
   */
  static Measurement of(String shape, String mode, int fork, int round, int znodes, int syncZnodes,
      LineRecord answer, ProcessSample client, ProcessSample servers, LineRecord sessions) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put(FORK, fork);
    double wall = 0;
    for (String phase : Workload.PHASES) {
      wall += answer.getDouble(phaseColumn(phase));
    }
    v.put(WALL_MS, wall);
    v.put(OPS, (long) OPS_PER_ZNODE * znodes);
    v.put(SYNC_MS, answer.getDouble(SYNC_MS));
    v.put(SYNC_OPS, (long) Workload.SYNC_OPS.size() * syncZnodes);
    for (String column : List.of(SESSION_MS, HANDSHAKE_FIRST_MS, HANDSHAKE_LATER_MS, HANDSHAKES_RESUMED)) {
      v.put(column, sessions == null || !sessions.fields().containsKey(column) ? Double.NaN
          : sessions.getDouble(column));
    }
    v.putAll(client.columns(CLIENT));
    v.putAll(servers.columns(SERVER));
    for (String phase : Workload.PHASES) {
      v.put(phaseColumn(phase), answer.getDouble(phaseColumn(phase)));
    }
    for (String op : Workload.SYNC_OPS) {
      for (int p : new int[] {50, 99}) {
        v.put(syncColumn(op, p), answer.getDouble(syncColumn(op, p)));
      }
    }
    return new Measurement(shape, mode, round, v);
  }

  /** Wall time per asynchronous operation: the wall metric. */
  static double wallPerOp(Measurement m) {
    return m.value(WALL_MS) / m.value(OPS);
  }

  /** Mean latency of a synchronous request: the sync metric. */
  static double syncPerOp(Measurement m) {
    return m.value(SYNC_MS) / m.value(SYNC_OPS);
  }

  /**
   * Client plus server CPU per operation, asynchronous and synchronous together, the JIT compilers' left out
   * ({@link ProcessSample#withoutJit}): the CPU metric.
   */
  static double cpuPerOp(Measurement m) {
    return (workCpuMs(m, CLIENT) + workCpuMs(m, SERVER)) / allOps(m);
  }

  /** One side's CPU microseconds per operation, its JIT compilers' left out. */
  static double usPerOp(Measurement m, String side) {
    return workCpuMs(m, side) * 1e3 / allOps(m);
  }

  private static double workCpuMs(Measurement m, String side) {
    return ProcessSample.withoutJit(m.value(side + CPU_MS), m.value(side + JIT_MS));
  }

  private static double allOps(Measurement m) {
    return m.value(OPS) + m.value(SYNC_OPS);
  }

  /** A row's one-line account for progress output. */
  static String describe(Measurement m) {
    return String.format(Locale.ROOT, "%,.0f ops in %,.0f ms, %,.0f sync in %,.0f ms, CPU client %,.0f ms"
        + " servers %,.0f ms", m.value(OPS), m.value(WALL_MS), m.value(SYNC_OPS), m.value(SYNC_MS),
        m.value(CLIENT + CPU_MS), m.value(SERVER + CPU_MS));
  }
}
