package io.securethrift.ingest.cli;

import io.securethrift.ingest.bench.EmbeddedBackend;
import io.securethrift.ingest.bench.FaultBench;
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
import java.util.stream.Stream;

/**
 * {@code ingest-bench --faults}: every fault in every mode, one line each as it ends, then a verdict. A run that
 * passed leaves nothing behind; a failed one keeps its directory (server logs, write-ahead log) under
 * {@code OUTPUT/faults/FAULT-MODE} for a look.
 */
final class FaultRuns {
  private FaultRuns() {}

  static int run(List<String> faultTokens, List<String> modes, ServerModel server, Duration runTime, long seed,
      Path output) throws Exception {
    List<Fault> faults = Fault.parseList("--faults", faultTokens);
    List<String> levels = modes == null ? new EmbeddedBackend().modes() : modes;
    Settings d = Settings.DEFAULT;
    Settings settings = new Settings(runTime, d.flushInterval(), d.batchMemory(), d.writeThreads(), d.retry(), server);
    System.out.println("fault    mode                entries written and received, retries, reconnects, time lost"
        + " (summed over the writer's threads), verify counts");
    int failed = 0;
    for (Fault fault : faults) {
      for (String mode : levels) {
        Path dir = output.resolve("faults").resolve(fault.token() + "-" + mode);
        Outcome outcome = FaultBench.run(mode, fault, dir, settings, seed);
        System.out.println(outcome.line());
        if (outcome.passed()) {
          deleteRecursively(dir);
        } else {
          failed++;
          System.out.println("         kept " + dir + " (server logs, write-ahead log)");
        }
      }
    }
    System.out.println(failed == 0 ? "every run ended with UNDEFINED = 0 and CORRUPT = 0"
        : failed + " run(s) failed");
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
