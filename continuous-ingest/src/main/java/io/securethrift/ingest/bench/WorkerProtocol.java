package io.securethrift.ingest.bench;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.time.Duration;

/**
 * The commands the benchmark sends its client worker and the answers, as named-field {@link LineRecord}s, written
 * and read only here: {@code INGEST} (the {@link IngestOptions}) answers {@code RESULT} (the {@link IngestResult}),
 * {@code VERIFY} answers {@code VERIFIED} (the {@link VerifyResult}), {@code RESET} answers {@code OK}. The server
 * worker prints {@code READY port=n} once it listens.
 */
final class WorkerProtocol {
  static final String INGEST = "INGEST";
  static final String VERIFY = "VERIFY";
  static final String RESET = "RESET";
  static final String OK = "OK";
  static final String READY = "READY";

  private WorkerProtocol() {}

  static LineRecord ingest(IngestOptions o) {
    return LineRecord.of(INGEST).with("entries", o.entries()).with("flushInterval", o.flushInterval())
        .with("batchMemory", o.batchMemory()).with("maxLatencyMs", o.maxLatency().toMillis())
        .with("writeThreads", o.writeThreads()).with("seed", o.seed());
  }

  static IngestOptions options(LineRecord r) {
    return new IngestOptions(r.getLong("entries"), r.getInt("flushInterval"), r.getLong("batchMemory"),
        Duration.ofMillis(r.getLong("maxLatencyMs")), r.getInt("writeThreads"), r.getLong("seed"));
  }

  static LineRecord result(IngestResult r) {
    return LineRecord.of("RESULT").with("entries", r.entries()).with("bytes", r.bytes())
        .with("elapsedNanos", r.elapsedNanos()).with("clientCpuNanos", r.clientCpuNanos())
        .with("serverCpuNanos", r.serverCpuNanos());
  }

  static IngestResult result(LineRecord r) {
    return new IngestResult(r.getLong("entries"), r.getLong("bytes"), r.getLong("elapsedNanos"),
        r.getLong("clientCpuNanos"), r.getLong("serverCpuNanos"));
  }

  static LineRecord verified(VerifyResult v) {
    return LineRecord.of("VERIFIED").with("referenced", v.referenced()).with("unreferenced", v.unreferenced())
        .with("undefined", v.undefined()).with("corrupt", v.corrupt())
        .with("undefinedExamples", v.undefinedExamples());
  }

  static VerifyResult verified(LineRecord r) {
    return new VerifyResult(r.getLong("referenced"), r.getLong("unreferenced"), r.getLong("undefined"),
        r.getLong("corrupt"), r.getList("undefinedExamples"));
  }
}
