package io.securethrift.ingest.bench;

import io.securethrift.kdc.Directories;
import io.securethrift.core.ConfigException;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Runs the continuous-ingest workload over every security level and reports what each costs. It starts a real KDC
 * and test CA in this process and asks the backend for one target per level; iterations go round-robin across levels
 * so machine drift hits each alike, and every iteration starts from an empty table and is verified after.
 */
public final class IngestBenchmark {
  private final BenchSettings settings;
  private final IngestBackend backend;

  /** Checks the settings against the chosen backend; nothing starts until {@link #run()}. */
  public IngestBenchmark(BenchSettings settings) {
    this.settings = settings;
    this.backend = backend(settings.backend());
    for (String mode : settings.modes()) {
      if (!backend.modes().contains(mode)) {
        throw new ConfigException("--modes", "'" + mode + "' is not a mode of the " + backend.name()
            + " backend; accepted values: " + String.join(", ", backend.modes()));
      }
    }
  }

  /** The modes a backend runs, for a default of "all of them"; an unknown backend is reported by the constructor. */
  public static List<String> modesOf(String backend) {
    return backends().stream().filter(b -> b.name().equals(backend)).findFirst().map(IngestBackend::modes)
        .orElse(List.of("none"));
  }

  /** The backends on the class path, by name. */
  static List<IngestBackend> backends() {
    List<IngestBackend> found = new ArrayList<>();
    ServiceLoader.load(IngestBackend.class, IngestBenchmark.class.getClassLoader()).forEach(found::add);
    return found;
  }

  private static IngestBackend backend(String name) {
    List<IngestBackend> all = backends();
    return all.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow(() -> new ConfigException(
        "--backend", "'" + name + "' is not available; available: "
            + all.stream().map(IngestBackend::name).collect(Collectors.joining(", "))));
  }

  /** Runs everything and returns the report; throws if any iteration fails verification. */
  public String run() throws IOException {
    Path work = Files.createTempDirectory("securethrift-ingest-");
    try (BenchSecurity security = new BenchSecurity(work)) {
      BenchEnvironment environment = new BenchEnvironment(work, security, settings.writeAheadLog(),
          settings.backendOptions(), settings.server());
      Map<String, IngestBackend.Target> targets = new LinkedHashMap<>();
      try {
        for (String mode : settings.modes()) {
          targets.put(mode, backend.start(mode, environment));
        }
        return measure(targets);
      } finally {
        targets.values().forEach(IngestBackend.Target::close);
      }
    } finally {
      Directories.deleteRecursively(work);
    }
  }

  private String measure(Map<String, IngestBackend.Target> targets) throws IOException {
    boolean warmup = settings.warmupEntries() > 0;
    ProgressBar progress = new ProgressBar(targets.size() * (settings.iterations() + (warmup ? 1 : 0)));
    if (warmup) {
      for (Map.Entry<String, IngestBackend.Target> t : targets.entrySet()) {
        iteration(t.getKey(), t.getValue(), settings.warmupEntries(), "warm-up");
        progress.step(t.getKey() + " warm-up");
      }
    }
    Map<String, List<IngestResult>> results = new LinkedHashMap<>();
    for (int i = 1; i <= settings.iterations(); i++) {
      for (Map.Entry<String, IngestBackend.Target> t : targets.entrySet()) {
        results.computeIfAbsent(t.getKey(), k -> new ArrayList<>())
            .add(iteration(t.getKey(), t.getValue(), settings.entries(), "iteration " + i));
        progress.step(t.getKey() + " iteration " + i + "/" + settings.iterations());
      }
    }
    List<ModeSummary> rows = new ArrayList<>();
    results.forEach((mode, r) -> rows.add(ModeSummary.of(mode, r)));
    BenchReport report = new BenchReport(rows, backend.name() + " backend: " + settings.describe());
    List<Path> files = report.write(settings.output());
    StringBuilder out = new StringBuilder(report.table());
    files.forEach(f -> out.append("wrote ").append(f).append('\n'));
    return out.toString();
  }

  private IngestResult iteration(String mode, IngestBackend.Target target, long entries, String label)
      throws IOException {
    target.reset();
    IngestResult result = target.ingest(new IngestOptions(entries, settings.flushInterval(), settings.batchMemory(),
        settings.maxLatency(), settings.writeThreads(), settings.seed()));
    VerifyResult v = target.verify();
    if (!v.passed()) {
      throw new IllegalStateException("verification failed for " + mode + " " + label + ": UNDEFINED="
          + v.undefined() + " CORRUPT=" + v.corrupt() + " REFERENCED=" + v.referenced() + " UNREFERENCED="
          + v.unreferenced() + (v.undefinedExamples().isEmpty() ? "" : " undefined rows " + v.undefinedExamples()));
    }
    return result;
  }
}
