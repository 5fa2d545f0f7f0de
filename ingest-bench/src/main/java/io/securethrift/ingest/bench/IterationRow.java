package io.securethrift.ingest.bench;

import io.securethrift.harness.Forks;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The raw row of one iteration, its columns named here: the fork (JVM pair) that ran it, wall time, entries and payload
 * bytes; each side's CPU (user,
 * system, and the JIT compiler's part of it), garbage collection and bytes through its read and write system calls;
 * and the verify counts. A value the
 * backend cannot measure (a remote server's CPU) is NaN.
 */
final class IterationRow {
  static final String WALL_MS = "wall_ms";
  /** Which of a mode's JVM pairs ran the iteration, counted from 0. */
  static final String FORK = Forks.COLUMN;
  static final String ENTRIES = "entries";
  static final String PAYLOAD_BYTES = "payload_bytes";
  static final String CLIENT = "client_";
  static final String SERVER = "server_";
  static final String CPU_MS = ProcessSample.CPU_MS;
  static final String GC_MS = ProcessSample.GC_MS;
  /** The JIT compiler threads' share of a side's CPU ({@link ProcessSample#jitNanos()}). */
  static final String JIT_MS = ProcessSample.JIT_MS;
  static final String READ_BYTES = ProcessSample.READ_BYTES;
  static final String WRITTEN_BYTES = ProcessSample.WRITTEN_BYTES;

  private IterationRow() {}

  static Measurement of(String server, String mode, int fork, int round, IngestResult result, TargetSample used,
      VerifyResult verified) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put(FORK, fork);
    v.put(WALL_MS, result.elapsedNanos() / 1e6);
    v.put(ENTRIES, result.entries());
    v.put(PAYLOAD_BYTES, result.bytes());
    v.putAll(used.client().columns(CLIENT));
    v.putAll(used.server().columns(SERVER));
    v.put("referenced", verified.referenced());
    v.put("unreferenced", verified.unreferenced());
    v.put("undefined", verified.undefined());
    v.put("corrupt", verified.corrupt());
    return new Measurement(server, mode, round, v);
  }

  /** Wall time per entry: the wall-time metric (equal to wall time when every mode writes the same entries). */
  static double wallPerEntry(Measurement m) {
    return m.value(WALL_MS) / m.value(ENTRIES);
  }

  /** Client plus server CPU per entry, the JIT compilers' left out: the CPU metric. */
  static double cpuPerEntry(Measurement m) {
    return (workCpuMs(m, CLIENT) + workCpuMs(m, SERVER)) / m.value(ENTRIES);
  }

  /** One side's CPU milliseconds without its JIT compiler threads' ({@link ProcessSample#withoutJit}). */
  static double workCpuMs(Measurement m, String side) {
    return ProcessSample.withoutJit(m.value(side + CPU_MS), m.value(side + JIT_MS));
  }
}
