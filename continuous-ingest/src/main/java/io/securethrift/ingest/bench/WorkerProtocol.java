package io.securethrift.ingest.bench;

import io.securethrift.benchstats.ProcessSample;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.time.Duration;

/**
 * The commands the benchmark sends its worker JVMs and the answers, as named-field {@link LineRecord}s, written and
 * read only here. The client worker: {@code INGEST} (the {@link IngestOptions}) answers {@code RESULT} (the
 * {@link IngestResult}). The server worker prints {@code READY port=n} once it listens; {@code VERIFY} answers
 * {@code VERIFIED} (the {@link VerifyResult} of its table, checked in its own process, and the entries it received),
 * {@code RESET} empties its table, collects the garbage and answers {@code OK}. Both answer {@code SAMPLE} with
 * {@code GC count=… millis=…}, the garbage collection only the JVM itself knows (its CPU and I/O the harness reads
 * from the OS).
 *
 * <p>A command with {@code baseline=true} goes to the worker's baseline instead: a second, unsecured server (and the
 * client's connection to it) in the same JVMs, so that a mode's cost is compared with the baseline's in the same
 * processes. Separate JVMs differ from one another by several percent in CPU per entry for the same work (how their
 * JIT compiled it, how their collector sized its heap), a difference that stays for a JVM's life and that pairing
 * iterations by round cannot cancel.
 */
final class WorkerProtocol {
  static final String INGEST = "INGEST";
  static final String VERIFY = "VERIFY";
  static final String RESET = "RESET";
  static final String SAMPLE = "SAMPLE";
  static final String OK = "OK";
  static final String READY = "READY";
  static final String BASELINE = "baseline";
  static final String BASELINE_PORT = "baselinePort";

  private WorkerProtocol() {}

  static LineRecord ingest(IngestOptions o) {
    return LineRecord.of(INGEST).with("entries", o.entries()).with("flushInterval", o.flushInterval())
        .with("batchMemory", o.batchMemory()).with("maxLatencyMs", o.maxLatency().toMillis())
        .with("writeThreads", o.writeThreads()).with("seed", o.seed()).with("durationMs", o.duration().toMillis());
  }

  /** {@code command} sent to the worker's baseline. */
  static LineRecord toBaseline(LineRecord command) {
    return command.with(BASELINE, true);
  }

  /** Whether a command is for the worker's baseline. */
  static boolean baseline(LineRecord command) {
    return Boolean.parseBoolean(command.fields().get(BASELINE));
  }

  static IngestOptions options(LineRecord r) {
    return new IngestOptions(r.getLong("entries"), r.getInt("flushInterval"), r.getLong("batchMemory"),
        Duration.ofMillis(r.getLong("maxLatencyMs")), r.getInt("writeThreads"), r.getLong("seed"),
        Duration.ofMillis(r.getLong("durationMs")));
  }

  static LineRecord result(IngestResult r) {
    return LineRecord.of("RESULT").with("entries", r.entries()).with("bytes", r.bytes())
        .with("elapsedNanos", r.elapsedNanos()).with("clientCpuNanos", r.clientCpuNanos());
  }

  static IngestResult result(LineRecord r) {
    return new IngestResult(r.getLong("entries"), r.getLong("bytes"), r.getLong("elapsedNanos"),
        r.getLong("clientCpuNanos"));
  }

  static LineRecord verified(VerifyResult v, long received) {
    return LineRecord.of("VERIFIED").with("referenced", v.referenced()).with("unreferenced", v.unreferenced())
        .with("undefined", v.undefined()).with("corrupt", v.corrupt())
        .with("undefinedExamples", v.undefinedExamples()).with("received", received);
  }

  /** The entries the server received, from its {@code VERIFIED} answer. */
  static long received(LineRecord r) {
    return r.getLong("received");
  }

  static VerifyResult verified(LineRecord r) {
    return new VerifyResult(r.getLong("referenced"), r.getLong("unreferenced"), r.getLong("undefined"),
        r.getLong("corrupt"), r.getList("undefinedExamples"));
  }

  /** This JVM's garbage collection so far, the answer to {@code SAMPLE}. */
  static LineRecord gc() {
    long[] gc = ProcessSample.gcTotals();
    return LineRecord.of("GC").with("count", gc[0]).with("millis", gc[1]);
  }

  /** The OS's account of a worker's process with the garbage collection it reported. */
  static ProcessSample sample(long pid, LineRecord gc) {
    return ProcessSample.of(pid).withGc(gc.getLong("count"), gc.getLong("millis"));
  }
}
