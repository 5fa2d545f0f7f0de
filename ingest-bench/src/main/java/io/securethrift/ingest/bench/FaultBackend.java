package io.securethrift.ingest.bench;

import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.bench.FaultBench.Fault;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** A backend's side of {@code ingest-bench --faults} (see {@link IngestBackend#faults()}). */
public interface FaultBackend {
  /**
   * Why {@code fault} cannot run in {@code mode} on this backend, as a sentence the report prints; empty when it can.
   */
  Optional<String> notApplicable(String mode, Fault fault);

  /** The KDC's ticket lifetime in {@code expire} runs: short enough that tickets expire during the run. */
  Duration shortTickets();

  /** Starts {@code mode}'s system for one run of {@code fault}; called only when the fault applies. */
  FaultTarget start(String mode, Fault fault, Environment environment) throws IOException;

  /**
   * What one fault run's target shares with the runner.
   *
   * @param dir the run's directory (kept when the run fails, for its logs)
   * @param security the run's KDC and certificates (the KDC built with {@link #shortTickets()} in {@code expire} runs)
   * @param settings how the run writes
   * @param seed the seed of the generator and of the proxy's random faults
   * @param options {@code --backend-option} settings
   */
  record Environment(Path dir, BenchSecurity security, FaultBench.Settings settings, long seed,
      Map<String, String> options) {
    public Environment {
      options = Map.copyOf(options);
    }
  }
}
