package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.ingest.client.IngestResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Runs the continuous-ingest workload over every security level and reports what each costs. It starts a real KDC
 * and test CA in this process, then one server JVM and one client JVM per level; iterations go round-robin across
 * levels so machine drift hits each alike, every iteration starts from an empty table and is verified after.
 */
public final class IngestBenchmark {
  private final BenchSettings settings;

  public IngestBenchmark(BenchSettings settings) {
    this.settings = settings;
  }

  /** Runs everything and returns the report; throws if any iteration fails verification. */
  public String run() throws IOException, InterruptedException {
    Path work = Files.createTempDirectory("securethrift-ingest-");
    try (SecurityFixtures fixtures = new SecurityFixtures(work)) {
      List<BenchMode> modes = settings.modes().stream().map(BenchMode::parse).toList();
      Map<BenchMode, ChildJvm[]> workers = new LinkedHashMap<>();
      try {
        for (BenchMode mode : modes) {
          workers.put(mode, startWorkers(mode, fixtures, work));
        }
        return measure(workers);
      } finally {
        workers.values().stream().flatMap(Stream::of).forEach(ChildJvm::close);
      }
    } finally {
      deleteTree(work);
    }
  }

  private String measure(Map<BenchMode, ChildJvm[]> workers) throws IOException {
    boolean warmup = settings.warmupEntries() > 0;
    ProgressBar progress = new ProgressBar(workers.size() * (settings.iterations() + (warmup ? 1 : 0)));
    if (warmup) {
      for (Map.Entry<BenchMode, ChildJvm[]> w : workers.entrySet()) {
        iteration(w.getKey(), w.getValue()[1], settings.warmupEntries(), "warm-up");
        progress.step(w.getKey() + " warm-up");
      }
    }
    Map<BenchMode, List<IngestResult>> results = new LinkedHashMap<>();
    for (int i = 1; i <= settings.iterations(); i++) {
      for (Map.Entry<BenchMode, ChildJvm[]> w : workers.entrySet()) {
        results.computeIfAbsent(w.getKey(), k -> new ArrayList<>())
            .add(iteration(w.getKey(), w.getValue()[1], settings.entries(), "iteration " + i));
        progress.step(w.getKey() + " iteration " + i + "/" + settings.iterations());
      }
    }
    List<ModeSummary> rows = new ArrayList<>();
    results.forEach((mode, r) -> rows.add(ModeSummary.of(mode.token(), r)));
    BenchReport report = new BenchReport(rows, settings.describe());
    List<Path> files = report.write(settings.output());
    StringBuilder out = new StringBuilder(report.table());
    files.forEach(f -> out.append("wrote ").append(f).append('\n'));
    return out.toString();
  }

  private IngestResult iteration(BenchMode mode, ChildJvm client, long entries, String label) throws IOException {
    client.call("RESET");
    String[] r = client.call("INGEST " + entries + " " + settings.flushInterval() + " " + settings.batchMemory() + " "
        + settings.maxLatency().toMillis() + " " + settings.writeThreads() + " " + settings.seed()).split(" ");
    String[] v = client.call("VERIFY").split(" ");
    long undefined = Long.parseLong(v[3]);
    long corrupt = Long.parseLong(v[4]);
    if (undefined != 0 || corrupt != 0) {
      throw new IllegalStateException("verification failed for " + mode + " " + label + ": UNDEFINED=" + undefined
          + " CORRUPT=" + corrupt + " REFERENCED=" + v[1] + " UNREFERENCED=" + v[2]
          + (v.length > 5 ? " " + v[5] : ""));
    }
    return new IngestResult(Long.parseLong(r[1]), Long.parseLong(r[2]), Long.parseLong(r[3]), Long.parseLong(r[4]),
        Long.parseLong(r[5]));
  }

  private ChildJvm[] startWorkers(BenchMode mode, SecurityFixtures fixtures, Path work) throws IOException {
    Path serverProps = writeConfig(work.resolve(mode + "-server.properties"), mode.config(fixtures, true));
    Path clientProps = writeConfig(work.resolve(mode + "-client.properties"), mode.config(fixtures, false));
    List<String> serverArgs = new ArrayList<>(List.of(serverProps.toString()));
    if (settings.writeAheadLog()) {
      serverArgs.add(work.resolve(mode + ".wal").toString());
    }
    ChildJvm server = ChildJvm.start(mode + " server", ServerWorker.class, fixtures.krb5Conf(), "1g",
        serverArgs.toArray(String[]::new));
    try {
      String port = server.answer().substring("PORT ".length());
      ChildJvm client = ChildJvm.start(mode + " client", ClientWorker.class, fixtures.krb5Conf(), "1g",
          clientProps.toString(), SecurityFixtures.HOST, port);
      return new ChildJvm[] {server, client};
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Writes a configuration for a worker, readable only by this user since it holds store passwords. */
  private static Path writeConfig(Path file, SecurityConfig config) throws IOException {
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Properties p = new Properties();
    p.putAll(config.toProperties());
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, null);
    }
    return file;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
