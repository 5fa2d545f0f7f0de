package io.securethrift.ingest.bench;

import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchMode;
import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.bench.FaultBench.Outcome;
import io.securethrift.ingest.bench.FaultBench.Settings;
import io.securethrift.ingest.server.ServerModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code ingest-bench --faults}: every fault in every mode of the chosen backend, one line each as it ends, then a
 * verdict. A fault that cannot happen in a mode on that backend gets a line saying why instead of a run. A run that
 * passed leaves nothing behind; a failed one keeps its directory (server logs and data) under
 * {@code OUTPUT/faults/FAULT-MODE} for a look.
 */
public final class FaultRuns {
  private FaultRuns() {}

  /**
   * Runs {@code faultTokens} in every mode of {@code modes} (null: every mode of the backend) and prints a line per run
   * and the verdict.
   *
   * @return the exit code: 0 when every run passed, 1 when one failed or none could run
   */
  public static int run(List<String> faultTokens, String backendName, Map<String, String> options, List<String> modes,
      ServerModel server, Duration runTime, long seed, Path output) throws Exception {
    List<Fault> faults = Fault.parseList("--faults", faultTokens);
    IngestBackend backend = IngestBenchmark.backend(backendName);
    FaultBackend faultBackend = backend.faults().orElseThrow(() -> new ConfigException("--faults",
        "the " + backend.name() + " backend has no fault runs"));
    if (server != ServerModel.THREADPOOL && !backend.name().equals("embedded")) {
      throw new ConfigException("--server", "applies to the embedded backend only; the " + backend.name()
          + " backend runs its own servers");
    }
    List<String> levels = modes == null ? backend.modes().names()
        : backend.modes().parse("--modes", modes).stream().map(BenchMode::name).toList();
    Settings d = Settings.DEFAULT;
    Settings settings = new Settings(runTime, d.flushInterval(), d.batchMemory(), d.writeThreads(), d.retry(), server);
    System.out.println("fault    mode                entries written and received, retries, reconnects, time lost"
        + " (as the " + backend.name() + " backend measures it, see docs/resilience.md), verify counts");
    int ran = 0;
    int failed = 0;
    int notApplicable = 0;
    for (Fault fault : faults) {
      for (String mode : levels) {
        Optional<String> why = faultBackend.notApplicable(mode, fault);
        if (why.isPresent()) {
          notApplicable++;
          System.out.println(String.format(Locale.ROOT, "%-8s %-19s not applicable on the %s backend: %s",
              fault.token(), mode, backend.name(), why.get()));
          continue;
        }
        Path dir = output.resolve("faults").resolve(fault.token() + "-" + mode);
        Outcome outcome = FaultBench.run(faultBackend, mode, fault, dir, settings, seed, options);
        System.out.println(outcome.line());
        ran++;
        if (outcome.passed()) {
          deleteRecursively(dir);
        } else {
          failed++;
          System.out.println("         kept " + dir + " (server logs and data)");
        }
      }
    }
    if (ran == 0) {
      System.out.println("no run: none of these faults applies to these modes on the " + backend.name()
          + " backend");
      return 1;
    }
    String skipped = notApplicable == 0 ? "" : " (" + notApplicable + " not applicable, see above)";
    System.out.println(failed == 0 ? "every run ended with UNDEFINED = 0 and CORRUPT = 0" + skipped
        : failed + " run(s) failed" + skipped);
    return failed == 0 ? 0 : 1;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> {
        try {
          Files.delete(f);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
