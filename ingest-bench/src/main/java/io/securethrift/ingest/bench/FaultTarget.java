package io.securethrift.ingest.bench;

import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.client.RetryCounters;
import io.securethrift.ingest.faults.FaultProxy;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * One backend's running system during one {@code ingest-bench --faults} run: a server, the backend's own client
 * writing to it (with the client's own retries), and a {@link FaultProxy} that every connection to the server goes
 * through. {@link FaultBench} owns the run: it starts the ingest, injects the fault through the operations below at set
 * points of the run, and judges the outcome, the same way for every backend.
 */
public interface FaultTarget extends AutoCloseable {
  /** The proxy between the server and everything that connects to it. */
  FaultProxy proxy();

  /** Writes as {@code options} says (for {@link IngestOptions#duration()}) and returns what was acknowledged. */
  IngestResult ingest(IngestOptions options) throws IOException;

  /**
   * A count that grows while the ingest gets on (bytes forwarded, entries acknowledged): each fault waits for it to
   * move since the previous one.
   */
  long progress();

  /**
   * Kills the server process or processes with SIGKILL, as a crash or the OOM killer does (no shutdown hook, nothing
   * flushed), and starts them again on their data; returns once they were started, not necessarily serving.
   */
  void killAndRestartServer() throws IOException, InterruptedException;

  /**
   * Replaces the certificate files with the step's new ones and makes the server use them, waiting on {@code timeline}
   * where that takes time; the runner cuts the connections afterwards, so new handshakes use the new files.
   */
  void rotate(CertificateRotation.Step step, FaultTimeline timeline) throws IOException, InterruptedException;

  /**
   * Takes one step of the {@code tls-on} roll ({@link TlsRollout.Step}); the runner cuts the connections after the
   * client's move, so they come back on TLS. Only a backend whose {@link FaultBackend#notApplicable} lets
   * {@code tls-on} run implements it.
   */
  default void rollTls(TlsRollout.Step step) throws IOException, InterruptedException {
    throw new UnsupportedOperationException("this backend does not run tls-on");
  }

  /** The server's unified port in a {@code tls-on} run: what it served and refused of plaintext. */
  default TlsRollout.Port plaintextPort() throws IOException {
    throw new UnsupportedOperationException("this backend does not run tls-on");
  }

  /** Whether a plaintext client's call to the server (through the proxy) was served, in a {@code tls-on} run. */
  default boolean plaintextClientServed() throws IOException {
    throw new UnsupportedOperationException("this backend does not run tls-on");
  }

  /** What the faults cost the client so far. */
  Cost cost();

  /** After the ingest: what the server holds of what was written, and the continuous-ingest verify counts. */
  Check verify() throws IOException;

  /** Stops everything the target started. */
  @Override
  void close();

  /**
   * What the faults cost the client.
   *
   * @param retries calls tried again, when the client counts them
   * @param reconnects connections opened to replace failed ones, when the client counts them
   * @param nanosLost time the client spent on failures, as the backend measures it (see its documentation)
   */
  record Cost(OptionalLong retries, OptionalLong reconnects, long nanosLost) {
    /** The ingest client's own counters. */
    public static Cost of(RetryCounters.Snapshot counters) {
      return new Cost(OptionalLong.of(counters.retries()), OptionalLong.of(counters.reconnects()),
          counters.nanosLost());
    }

    /** For a client that hides its retries and reconnects: only the time lost is known. */
    public static Cost timeLostOnly(long nanosLost) {
      return new Cost(OptionalLong.empty(), OptionalLong.empty(), nanosLost);
    }

    String describe() {
      return String.format(Locale.ROOT, "retries=%s reconnects=%s lost=%.1fs", text(retries), text(reconnects),
          nanosLost / 1e9);
    }

    private static String text(OptionalLong count) {
      return count.isPresent() ? Long.toString(count.getAsLong()) : "n/a";
    }
  }

  /**
   * What the server holds after the run.
   *
   * @param received entries of the run the server holds: for a server that counts what it receives, every entry
   *     received (resends included, so it may exceed what was written); otherwise the acknowledged entries found in
   *     its table (at most what was written)
   * @param counts the verify counts of its table
   */
  record Check(long received, VerifyResult counts) {}
}
