package io.securethrift.ingest.bench;

import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What every backend's targets share during one benchmark run.
 *
 * @param workDir a private directory for configuration files, logs and data, deleted after the run
 * @param security the KDC and certificates of the run
 * @param writeAheadLog whether servers should log every batch to disk and sync it on flush
 * @param options backend-specific settings from {@code --backend-option key=value}
 * @param server the server model embedded servers run
 * @param memoryPerTarget bytes of memory each target of the run may take (the machine's available memory when the run
 *     started, less the launcher's reserve, shared among all targets, which live at once), for backends that start
 *     processes; empty where the machine gives no estimate
 */
public record BenchEnvironment(Path workDir, BenchSecurity security, boolean writeAheadLog,
    Map<String, String> options, ServerModel server, OptionalLong memoryPerTarget) {

  public BenchEnvironment {
    options = Map.copyOf(options);
  }

  /** A backend option, if given. */
  public Optional<String> option(String key) {
    return Optional.ofNullable(options.get(key));
  }

  /** Rejects options the backend does not know, naming them, so a typo cannot go unnoticed. */
  public void requireOnly(String backend, java.util.Set<String> known) {
    requireOnly(backend, options, known);
  }

  /** Rejects {@code options} the backend does not know (for runs without an environment, such as fault runs). */
  public static void requireOnly(String backend, Map<String, String> options, java.util.Set<String> known) {
    for (String key : options.keySet()) {
      if (!known.contains(key)) {
        throw new ConfigException("--backend-option", "'" + key + "' is not an option of the " + backend
            + " backend; accepted: " + (known.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(known))));
      }
    }
  }
}
