package io.securethrift.zkbench;

import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.harness.TurnLedger;
import io.securethrift.core.testing.LineRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs an iteration of the TLS session and one of the plaintext session in the client JVM taking turns, one
 * {@linkplain Workload#steps step} at a time (an asynchronous phase, or one operation type of the synchronous phase),
 * booked by a {@link TurnLedger} sampling this process and the ensemble's. Only one side runs at a time: a step ends
 * with the last reply of its requests, except for garbage collection and JIT compilation, which the CPU metric leaves
 * out or which is small.
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
    TurnLedger ledger = new TurnLedger(() -> new TargetSample(ProcessSample.self(),
        GcLog.ensemble(serverPids, gcLogs)));
    ledger.alternate(secured.steps(syncZnodes, results[0]), baseline.steps(syncZnodes, results[1]),
        baselineFirst ? 1 : 0);
    LineRecord r = LineRecord.of(BenchClientMain.TURNS);
    String[] prefixes = {SECURED, BASELINE};
    for (int side = 0; side < 2; side++) {
      BenchClientMain.columns(r, prefixes[side], results[side]);
      ledger.used(side).client().fields(prefixes[side] + CLIENT).forEach(r::with);
      ledger.used(side).server().fields(prefixes[side] + SERVERS).forEach(r::with);
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
