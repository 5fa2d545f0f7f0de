package io.securethrift.ingest.cli;

import io.securethrift.ingest.bench.BenchSettings;
import io.securethrift.ingest.bench.IngestBenchmark;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import io.securethrift.ingest.server.ServerModel;
import picocli.CommandLine.Option;

/** {@code ingest-bench}: the continuous-ingest overhead benchmark across every security mode. */
@Command(name = "ingest-bench", mixinStandardHelpOptions = true,
    description = {"Runs Accumulo's continuous-ingest workload over every security mode against the embedded backend",
        "(an in-process KDC and CA, one server and one client JVM per mode) and reports what each mode costs."})
public final class IngestBenchCommand implements Callable<Integer> {
  @Option(names = "--backend", description = "Where the entries go: embedded (this project's ingest server) or, with"
      + " accumulo-integration on the class path, accumulo (default: ${DEFAULT-VALUE}).", defaultValue = "embedded")
  String backend;

  @Option(names = "--backend-option", description = "A backend setting as key=value; repeatable.")
  Map<String, String> backendOptions = new LinkedHashMap<>();

  @Option(names = "--modes", split = ",",
      description = "Modes, the first being the baseline (default: every mode of the backend).")
  List<String> modes;

  @Option(names = "--iterations", description = "Measured runs per mode (default: ${DEFAULT-VALUE}).",
      defaultValue = "3")
  int iterations;

  @Option(names = "--entries", description = "Entries per run (default: ${DEFAULT-VALUE}).", defaultValue = "300000")
  long entries;

  @Option(names = "--warmup-entries", description = "Entries of one unmeasured run per mode, so every JVM has compiled"
      + " its crypto paths before measuring; 0 skips it (default: ${DEFAULT-VALUE}).", defaultValue = "300000")
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

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).", defaultValue = "42")
  long seed;

  @Option(names = "--server", description = "Server model of the embedded backend: threadpool or nonblocking"
      + " (default: ${DEFAULT-VALUE}).", defaultValue = "threadpool")
  String server;

  @Option(names = "--wal", description = "Log every batch to local disk on the server and sync it on flush.")
  boolean writeAheadLog;

  @Option(names = "--output", description = "Directory for the CSV, JSON and HTML results (default: ${DEFAULT-VALUE}).",
      defaultValue = "ingest-results")
  Path output;

  @Override
  public Integer call() throws Exception {
    BenchSettings settings = new BenchSettings(backend, backendOptions,
        modes == null ? IngestBenchmark.modesOf(backend) : modes, iterations, entries, warmupEntries, flushInterval, batchMemory,
        Duration.ofMillis(maxLatencyMs), writeThreads, seed, writeAheadLog, output,
        ServerModel.parse("--server", server));
    System.out.print(new IngestBenchmark(settings).run());
    return 0;
  }
}
