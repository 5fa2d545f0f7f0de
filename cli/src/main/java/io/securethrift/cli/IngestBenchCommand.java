package io.securethrift.cli;

import io.securethrift.core.ConfigException;
import io.securethrift.ingest.bench.BenchSettings;
import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.bench.FaultRuns;
import io.securethrift.ingest.bench.IngestBenchmark;
import io.securethrift.ingest.bench.ResultsTable;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ingest-bench}: the continuous-ingest overhead benchmark across every security mode. */
@Command(name = "ingest-bench", mixinStandardHelpOptions = true,
    subcommands = {IngestBenchCommand.Compare.class, IngestBenchCommand.Docs.class},
    description = {"Runs Accumulo's continuous-ingest workload over every security mode against the embedded backend",
        "(an in-process KDC and CA, one server and one client JVM per mode) and reports what each mode costs in wall",
        "time and in CPU per entry, each overhead with its 95 %% interval. After --warmup-rounds, rounds are added",
        "until every mode's CPU-per-entry interval (wall time where a side's CPU cannot be read) is within",
        "--precision points or --max-time is up, which counts from bin/securethrift's start, its build included.",
        "'ingest-bench compare A.json B.json' compares two runs."})
final class IngestBenchCommand implements Callable<Integer> {
  /** The environment variable in which bin/securethrift passes the moment it started. */
  static final String LAUNCHED = "SECURETHRIFT_LAUNCHED_MS";

  @Option(names = "--backend", description = "Where the entries go: embedded (this project's ingest server) or, with"
      + " accumulo on the class path, accumulo (default: ${DEFAULT-VALUE}).", defaultValue = "embedded")
  String backend;

  @Option(names = "--backend-option", description = "A backend setting as key=value; repeatable.")
  Map<String, String> backendOptions = new LinkedHashMap<>();

  @Option(names = "--modes", split = ",",
      description = "Modes, the first being the baseline (default: every mode of the backend).")
  List<String> modes;

  @Option(names = "--server", split = ",", description = "Server models of the embedded backend, comma-separated:"
      + " threadpool, nonblocking; each runs every mode against its own baseline (default: ${DEFAULT-VALUE}).",
      defaultValue = "threadpool")
  List<String> servers;

  @Option(names = "--forks", description = "JVM pairs per mode (embedded backend), taking the measured rounds in turn,"
      + " so that one pair's lasting differences count as noise (default: " + BenchSettings.DEFAULT_FORKS
      + " on the embedded backend, 1 on others).")
  Integer forks;

  @Mixin
  StoppingOptions stopping = new StoppingOptions(BenchSettings.DEFAULT_STOPPING);

  @Mixin
  WarmUpOption warmUp = new WarmUpOption(BenchSettings.DEFAULT_WARMUP_ROUNDS);

  @Option(names = "--entries", description = "Entries per iteration, the same in every run; 0 sizes iterations so that"
      + " the fastest mode's takes --iteration-time (default: " + BenchSettings.DEFAULT_ENTRIES + ", or 0 with"
      + " --duration).")
  Long entries;

  @Option(names = "--iteration-time", description = "Seconds an iteration of the fastest mode should take when"
      + " --entries is 0 (default: ${DEFAULT-VALUE}).", defaultValue = "1")
  double iterationSeconds;

  @Option(names = "--duration", description = "Time-based iterations, as Accumulo's continuous ingest: each writes"
      + " for this many seconds (to the next flush) and the cost is time per entry; 0 for a fixed count"
      + " (default: ${DEFAULT-VALUE}).", defaultValue = "0")
  double durationSeconds;

  @Option(names = "--warmup-entries", description = "Entries of each warm-up iteration (see --warmup-rounds); -1 for"
      + " as many as a measured iteration, 0 skips the warm-up (default: ${DEFAULT-VALUE}).", defaultValue = "-1")
  long warmupEntries;

  @Option(names = "--flush-interval", description = "Entries between flushes (default: ${DEFAULT-VALUE}).",
      defaultValue = "10000")
  int flushInterval;

  @Option(names = "--batch-memory", description = "Batch writer memory in bytes; Accumulo's published run used 500 KB"
      + " (default: ${DEFAULT-VALUE}).", defaultValue = "500000")
  long batchMemory;

  @Option(names = "--max-latency-ms", description = "Batch writer maximum latency (default: ${DEFAULT-VALUE}).",
      defaultValue = "120000")
  long maxLatencyMs;

  @Option(names = "--write-threads", description = "Batch writer threads (default: ${DEFAULT-VALUE}).",
      defaultValue = "3")
  int writeThreads;

  @Option(names = "--turn-entries", description = "Entries per turn where each mode and its own baseline take turns"
      + " in one client, so both meet the machine in the same state; 0 runs them one iteration after the other"
      + " (default: ${DEFAULT-VALUE}).", defaultValue = "" + BenchSettings.DEFAULT_TURN_ENTRIES)
  long turnEntries;

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).", defaultValue = "42")
  long seed;

  @Option(names = "--wal", description = "Log every batch to local disk on the server and sync it on flush.")
  boolean writeAheadLog;

  @Option(names = "--output", description = "Directory for the CSV, JSON and HTML results (default: ${DEFAULT-VALUE}).",
      defaultValue = "ingest-results")
  Path output;

  @Option(names = "--faults", split = ",", completionCandidates = FaultTokens.class, description = "Instead of"
      + " measuring overheads, run continuous ingest on --backend while these faults happen, each in every mode of"
      + " --modes: ${COMPLETION-CANDIDATES} (see docs/resilience.md; a fault that cannot happen in a mode on the"
      + " backend is reported as not applicable). Exits 1 unless every run ends with UNDEFINED = 0 and CORRUPT = 0.")
  List<String> faults;

  @Option(names = "--fault-time", description = "Seconds each --faults run writes for (default: ${DEFAULT-VALUE}).",
      defaultValue = "12")
  double faultSeconds;

  @Override
  public Integer call() throws Exception {
    if (faults != null) {
      return FaultRuns.run(faults, backend, backendOptions, modes,
          ServerModel.parse("--server", servers.get(0).trim()), seconds("--fault-time", faultSeconds), seed, output);
    }
    BenchSettings.Builder builder = BenchSettings.builder().backend(backend).backendOptions(backendOptions).modes(modes)
        .servers(servers.stream().map(s -> ServerModel.parse("--server", s.trim())).collect(Collectors.toList()))
        .stoppingRule(stopping.rule()).warmupRounds(warmUp.rounds())
        .iterationTime(seconds("--iteration-time", iterationSeconds))
        .duration(seconds("--duration", durationSeconds)).warmupEntries(warmupEntries).flushInterval(flushInterval)
        .batchMemory(batchMemory).maxLatency(Duration.ofMillis(maxLatencyMs)).writeThreads(writeThreads)
        .turnEntries(turnEntries).seed(seed).writeAheadLog(writeAheadLog).output(output);
    if (entries != null) {
      builder.entries(entries);
    }
    if (forks != null) {
      builder.forks(forks);
    }
    BenchSettings settings = builder.build();
    System.out.print(new IngestBenchmark(settings).launchedAt(launched()).run());
    return 0;
  }

  /**
   * When bin/securethrift was started (it exports {@value #LAUNCHED} in epoch milliseconds before building), so that
   * --max-time covers the build; null when run otherwise.
   */
  private static Instant launched() {
    String value = System.getenv(LAUNCHED);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Instant.ofEpochMilli(Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      throw new ConfigException(LAUNCHED, "'" + value + "' is not a time in epoch milliseconds; unset it, or let"
          + " bin/securethrift set it");
    }
  }

  private static Duration seconds(String option, double value) {
    if (value < 0 || Double.isNaN(value) || Double.isInfinite(value)) {
      throw new ConfigException(option, value + " is not a number of seconds");
    }
    return Duration.ofMillis(Math.round(value * 1000));
  }

  /** The faults {@code --faults} knows, as its help lists them: {@link Fault}'s tokens. */
  static final class FaultTokens implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Fault.values()).map(Fault::token).iterator();
    }
  }

  /** {@code ingest-bench compare A.json B.json}: two runs' overheads side by side, real differences marked. */
  @Command(name = "compare", mixinStandardHelpOptions = true,
      description = {"Compares two ingest-results.json files: every mode's overheads in A and in B with their 95 %%",
          "intervals, and B - A in points with its own interval; REAL marks a difference whose interval leaves out",
          "zero, the others are within the runs' noise."})
  static final class Compare extends CompareCommand {
    Compare() {
      super(ResultsTable.TOOL);
    }
  }

  /**
   * {@code ingest-bench docs FILE.md RESULTS.json...}: the runs' agreement and the last run's table
   * ({@link ResultsTable#DOCS}).
   */
  @Command(name = "docs", mixinStandardHelpOptions = true,
      description = {"Writes runs' tables (from their ingest-results.json files, oldest first) into FILE.md between",
          "the lines '<!-- ingest-bench results: ... -->' and '<!-- end of ingest-bench results -->': with several",
          "runs, whether they agree (CPU per entry within +/-3 points, wall within +/-5), then the last run's table."})
  static final class Docs extends DocsCommand {
    Docs() {
      super(ResultsTable.DOCS);
    }
  }
}
