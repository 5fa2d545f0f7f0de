package io.securethrift.zkbench;

import io.securethrift.harness.ProcessSample;
import io.securethrift.core.testing.LineRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs an iteration of the TLS session and one of the plaintext session in the client JVM taking turns, one
 * {@linkplain Workload#steps step} at a time (an asynchronous phase, or one operation type of the synchronous phase),
 * and samples this process and the ensemble's at every hand-over: each side's wall time, CPU and garbage collection
 * are the sums of its own turns. Who goes first changes every step, so a steady drift of the machine falls on both
 * sides alike.
 *
 * <p>Why: this machine's CPU time for the same work moves by tens of percent in steps lasting seconds (a virtual
 * machine sharing its host), so a mode and its baseline measured a whole iteration apart, a second or more, meet
 * different machines; the ingest benchmark's spread halved when its two sides took turns of a tenth of a second
 * (docs/benchmarks.md). Only one side runs at a time: a step ends with the last reply of its requests, except for
 * garbage collection and JIT compilation, which the CPU metric leaves out or which is small.
 */
final class TakingTurns {
  static final String SECURED = "secured.";
  static final String BASELINE = "baseline.";
  private static final String CLIENT = "client.";
  private static final String SERVERS = "servers.";

  private final List<Long> serverPids;
  private final Path gcLogs;

  /** Sampling the servers {@code serverPids}, whose GC logs are in {@code gcLogs}. */
  TakingTurns(List<Long> serverPids, Path gcLogs) {
    this.serverPids = serverPids;
    this.gcLogs = gcLogs;
  }

  /**
   * One iteration of each workload, the baseline's step first in even steps when {@code baselineFirst}; the answer
   * holds each side's {@code RUN} columns and what it used, prefixed {@link #SECURED} and {@link #BASELINE}.
   */
  LineRecord run(Workload secured, Workload baseline, int syncZnodes, boolean baselineFirst) throws Exception {
    Workload.Result[] results = {new Workload.Result(), new Workload.Result()};
    List<List<Workload.Step>> steps = List.of(secured.steps(syncZnodes, results[0]),
        baseline.steps(syncZnodes, results[1]));
    ProcessSample[] client = {ProcessSample.ZERO, ProcessSample.ZERO};
    ProcessSample[] servers = {ProcessSample.ZERO, ProcessSample.ZERO};
    ProcessSample clientMark = ProcessSample.self();
    ProcessSample serversMark = GcLog.ensemble(serverPids, gcLogs);
    for (int i = 0; i < steps.get(0).size(); i++) {
      int first = baselineFirst == (i % 2 == 0) ? 1 : 0;
      for (int side : new int[] {first, 1 - first}) {
        steps.get(side).get(i).run();
        ProcessSample clientNow = ProcessSample.self();
        ProcessSample serversNow = GcLog.ensemble(serverPids, gcLogs);
        client[side] = client[side].plus(clientNow.minus(clientMark));
        servers[side] = servers[side].plus(serversNow.minus(serversMark));
        clientMark = clientNow;
        serversMark = serversNow;
      }
    }
    LineRecord r = LineRecord.of(BenchClientMain.TURNS);
    String[] prefixes = {SECURED, BASELINE};
    for (int side = 0; side < 2; side++) {
      BenchClientMain.columns(r, prefixes[side], results[side]);
      client[side].fields(prefixes[side] + CLIENT).forEach(r::with);
      servers[side].fields(prefixes[side] + SERVERS).forEach(r::with);
    }
    return r;
  }

  /** Side {@code prefix}'s columns of a {@code TURNS} answer, as a {@code RUN} answer would name them. */
  static LineRecord columns(LineRecord turns, String prefix) {
    LineRecord r = LineRecord.of("RESULT");
    for (Map.Entry<String, String> f : turns.fields().entrySet()) {
      if (f.getKey().startsWith(prefix)) {
        r.with(f.getKey().substring(prefix.length()), f.getValue());
      }
    }
    return r;
  }

  /** What side {@code prefix} used in the client process. */
  static ProcessSample client(LineRecord turns, String prefix) {
    return ProcessSample.fromFields(prefix + CLIENT, turns::getLong);
  }

  /** What side {@code prefix} used in the ensemble's processes together. */
  static ProcessSample servers(LineRecord turns, String prefix) {
    return ProcessSample.fromFields(prefix + SERVERS, turns::getLong);
  }
}
