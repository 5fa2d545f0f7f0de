package io.securethrift.ingest.bench;

import io.securethrift.core.TlsEngine;
import io.securethrift.harness.ModeSet;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where the benchmark's entries go. Backends are found with {@link java.util.ServiceLoader} (registered in
 * {@code META-INF/services/io.securethrift.ingest.bench.IngestBackend}), so the Accumulo backend lives with the
 * Accumulo integration and this module needs no Accumulo dependency. The harness owns the order of runs, the
 * verification rule and the report; a backend only starts targets and runs one iteration on them.
 */
public interface IngestBackend {
  /** The name {@code --backend} selects. */
  String name();

  /** The engine of a mode written {@code tls}, in every backend: Conscrypt. */
  TlsEngine TLS_ENGINE = TlsEngine.CONSCRYPT;

  /** The security levels this backend can run, in report order; the first is the default baseline. */
  ModeSet modes();

  /** Starts what one security level needs (servers, clusters, client processes) and returns it ready to ingest. */
  Target start(String mode, BenchEnvironment environment) throws IOException;

  /** This backend's side of {@code ingest-bench --faults}; empty when it has none. */
  default Optional<FaultBackend> faults() {
    return Optional.empty();
  }

  /**
   * What one side of an {@link Target#ingestInTurns} did over all its turns.
   *
   * @param result its entries and bytes, and its turns' wall time and client CPU
   * @param used what its turns used in the client's and the server's process (the server's GC is not known per turn)
   * @param turns how many turns it took
   */
  record TurnAccount(IngestResult result, TargetSample used, int turns) {}

  /** One security level's running system. */
  interface Target extends AutoCloseable {
    /** Empties the table so the next iteration starts fresh. */
    void reset() throws IOException;

    /** Runs the workload once and measures it. */
    IngestResult ingest(IngestOptions options) throws IOException;

    /**
     * The client's and the server's use of CPU, I/O and garbage collection so far, taken by the harness right before
     * and right after {@link #ingest}; a side that cannot be sampled is {@link
     * io.securethrift.harness.ProcessSample#unknown()}.
     */
    TargetSample sample() throws IOException;

    /** Scans the table back and applies the continuous-ingest verify rules. */
    VerifyResult verify() throws IOException;

    /**
     * The baseline mode running in this target's own processes (an unsecured server and connection beside the secured
     * ones), so that this mode's cost is divided by the baseline's in the same JVMs; empty when the backend cannot
     * (then the baseline mode's own target is the reference). Closing the target closes it; it has no close of its
     * own.
     */
    default Optional<Target> baseline() {
      return Optional.empty();
    }

    /** Whether {@link #ingestInTurns} can run: the backend drives this target and its baseline from one client. */
    default boolean takesTurns() {
      return false;
    }

    /**
     * Runs the workload on this target and on its {@link #baseline()} at once, taking turns of {@code turnEntries}
     * entries, the baseline's first when {@code baselineFirst}, and measures each side over its own turns (see
     * {@link TakingTurns}); for a target that {@link #takesTurns()}.
     *
     * @return this target's account, then the baseline's
     */
    default List<TurnAccount> ingestInTurns(IngestOptions options, long turnEntries, boolean baselineFirst)
        throws IOException {
      throw new UnsupportedOperationException("this target does not take turns with its baseline");
    }

    /** Stops everything the target started. */
    @Override
    void close();
  }
}
