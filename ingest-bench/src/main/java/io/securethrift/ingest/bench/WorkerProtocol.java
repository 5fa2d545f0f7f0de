package io.securethrift.ingest.bench;

import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.sasl.SecureThriftSaslProvider;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.bench.IngestBackend.TurnAccount;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.time.Duration;

/**
 * The commands the benchmark sends its worker JVMs and the answers, as named-field {@link LineRecord}s, written and
 * read only here. The client worker: {@code INGEST} (the {@link IngestOptions}) answers {@code RESULT} (the
 * {@link IngestResult}). The server worker prints {@code READY port=n} once it listens; {@code VERIFY} answers
 * {@code VERIFIED} (the {@link VerifyResult} of its table, checked in its own process, and the entries it received),
 * {@code RESET} empties its table, collects the garbage and answers {@code OK}; {@code PLAINTEXT} answers with its
 * unified port's plaintext account ({@link TlsRollout.Port}), and with {@code accepted=false} turns the port TLS only
 * first. Both answer {@code SAMPLE} with
 * {@code GC count=… millis=…}, the garbage collection only the JVM itself knows (its CPU and I/O the harness reads
 * from the OS).
 *
 * <p>{@code INGEST} with {@code turnEntries}, {@code serverPid} and {@code baselineFirst} runs the secured ingest and
 * the baseline's at once, taking turns ({@link TakingTurns}), and answers {@code TURNS}: each side's result and what
 * it used in the client's and the server's process, its fields prefixed {@code secured.} and {@code baseline.}.
 *
 * <p>A command with {@code baseline=true} goes to the worker's baseline instead: a second, unsecured server (and the
 * client's connection to it) in the same JVMs, so that a mode's cost is compared with the baseline's in the same
 * processes. Separate JVMs differ from one another by several percent in CPU per entry for the same work (how their
 * JIT compiled it, how their collector sized its heap), a difference that stays for a JVM's life and that pairing
 * iterations by round cannot cancel.
 */
final class WorkerProtocol {
  private static final String AES_GCM_NEGOTIATIONS = "aesGcmNegotiations";
  private static final String AES_GCM_LEVEL = "auth-conf/aes-gcm";
  static final String INGEST = "INGEST";
  static final String TURNS = "TURNS";
  private static final String TURN_ENTRIES = "turnEntries";
  private static final String SECURED_SIDE = "secured.";
  private static final String BASELINE_SIDE = "baseline.";
  static final String VERIFY = "VERIFY";
  static final String RESET = "RESET";
  static final String SAMPLE = "SAMPLE";
  static final String PLAINTEXT = "PLAINTEXT";
  private static final String ACCEPTED = "accepted";
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

  /**
   * {@code INGEST} for both of the client worker's connections taking turns of {@code turnEntries}, the baseline's
   * first when {@code baselineFirst}, sampling server process {@code serverPid} at every hand-over.
   */
  static LineRecord ingestInTurns(IngestOptions o, long turnEntries, long serverPid, boolean baselineFirst) {
    return ingest(o).with(TURN_ENTRIES, turnEntries).with("serverPid", serverPid)
        .with("baselineFirst", baselineFirst);
  }

  /** Whether an {@code INGEST} command asks for turns. */
  static boolean inTurns(LineRecord command) {
    return command.fields().containsKey(TURN_ENTRIES);
  }

  static long turnEntries(LineRecord command) {
    return command.getLong(TURN_ENTRIES);
  }

  static long serverPid(LineRecord command) {
    return command.getLong("serverPid");
  }

  static boolean baselineFirst(LineRecord command) {
    return Boolean.parseBoolean(command.get("baselineFirst"));
  }

  /** The answer to {@code INGEST} in turns. */
  static LineRecord turns(TurnAccount secured, TurnAccount baseline) {
    return side(side(LineRecord.of(TURNS), SECURED_SIDE, secured), BASELINE_SIDE, baseline);
  }

  /** The secured side's account from a {@code TURNS} answer. */
  static TurnAccount securedSide(LineRecord r) {
    return side(r, SECURED_SIDE);
  }

  /** The baseline's account from a {@code TURNS} answer. */
  static TurnAccount baselineSide(LineRecord r) {
    return side(r, BASELINE_SIDE);
  }

  private static LineRecord side(LineRecord r, String prefix, TurnAccount side) {
    IngestResult result = side.result();
    LineRecord out = r.with(prefix + "entries", result.entries()).with(prefix + "bytes", result.bytes())
        .with(prefix + "elapsedNanos", result.elapsedNanos()).with(prefix + "turns", side.turns());
    return sample(sample(out, prefix + "client.", side.used().client()), prefix + "server.", side.used().server());
  }

  private static TurnAccount side(LineRecord r, String prefix) {
    TargetSample used = new TargetSample(sample(r, prefix + "client."), sample(r, prefix + "server."));
    IngestResult result = new IngestResult(r.getLong(prefix + "entries"), r.getLong(prefix + "bytes"),
        r.getLong(prefix + "elapsedNanos"), used.client().cpuNanos());
    return new TurnAccount(result, used, r.getInt(prefix + "turns"));
  }

  private static LineRecord sample(LineRecord r, String prefix, ProcessSample s) {
    s.fields(prefix).forEach(r::with);
    return r;
  }

  private static ProcessSample sample(LineRecord r, String prefix) {
    return ProcessSample.fromFields(prefix, r::getLong);
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
        .with("undefinedExamples", v.undefinedExamples()).with("received", received)
        .with(AES_GCM_NEGOTIATIONS, SecureThriftSaslProvider.negotiations(AES_GCM_LEVEL));
  }

  /**
   * How many SASL negotiations in the server's JVM settled on AES-GCM privacy so far, from its {@code VERIFIED}
   * answer: securethrift's GSSAPI mechanism counts them whether its own transports or the provider reached it.
   */
  static long aesGcmNegotiations(LineRecord r) {
    return r.getLong(AES_GCM_NEGOTIATIONS);
  }

  /** The entries the server received, from its {@code VERIFIED} answer. */
  static long received(LineRecord r) {
    return r.getLong("received");
  }

  static VerifyResult verified(LineRecord r) {
    return new VerifyResult(r.getLong("referenced"), r.getLong("unreferenced"), r.getLong("undefined"),
        r.getLong("corrupt"), r.getList("undefinedExamples"));
  }

  /** {@code PLAINTEXT}: the port's account, after turning it TLS only when {@code tlsOnly}. */
  static LineRecord plaintext(boolean tlsOnly) {
    LineRecord command = LineRecord.of(PLAINTEXT);
    return tlsOnly ? command.with(ACCEPTED, false) : command;
  }

  /** Whether a {@code PLAINTEXT} command turns the port TLS only. */
  static boolean tlsOnly(LineRecord command) {
    return command.fields().containsKey(ACCEPTED) && !Boolean.parseBoolean(command.get(ACCEPTED));
  }

  /** The answer to {@code PLAINTEXT}. */
  static LineRecord port(TlsRollout.Port port) {
    return LineRecord.of(PLAINTEXT).with("served", port.served()).with("refused", port.refused())
        .with(ACCEPTED, port.accepted());
  }

  static TlsRollout.Port port(LineRecord r) {
    return new TlsRollout.Port(r.getLong("served"), r.getLong("refused"), Boolean.parseBoolean(r.get(ACCEPTED)));
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
