package io.securethrift.cli;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.client.RetryCounters;
import io.securethrift.ingest.client.RetryPolicy;
import io.securethrift.ingest.workload.VerifyResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ingest-client}: one continuous-ingest run against an ingest server on another host. */
@Command(name = "ingest-client", mixinStandardHelpOptions = true,
    description = "Writes the continuous-ingest workload to an ingest server, then verifies it.")
final class IngestClientCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, description = "Properties file with securethrift.* keys.")
  Path config;

  @Option(names = "--host", required = true, description = "Server host (as named in its certificate or principal).")
  String host;

  @Option(names = "--port", description = "Server port (default: ${DEFAULT-VALUE}).", defaultValue = "9997")
  int port;

  @Option(names = "--entries", description = "Entries to write (default: ${DEFAULT-VALUE}).", defaultValue = "1000000")
  long entries;

  @Option(names = "--flush-interval", description = "Entries between flushes (default: ${DEFAULT-VALUE}).",
      defaultValue = "10000")
  int flushInterval;

  @Option(names = "--batch-memory", description = "Batch writer memory in bytes (default: ${DEFAULT-VALUE}).",
      defaultValue = "500000")
  long batchMemory;

  @Option(names = "--write-threads", description = "Batch writer threads (default: ${DEFAULT-VALUE}).",
      defaultValue = "3")
  int writeThreads;

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).", defaultValue = "42")
  long seed;

  @Option(names = "--no-verify", negatable = true, description = "Skip scanning the table back afterwards.")
  boolean verify = true;

  @Option(names = "--retry-attempts", description = "Tries per call whose connection failed, the first included; 1"
      + " turns retries off (default: ${DEFAULT-VALUE}).", defaultValue = "10")
  int retryAttempts;

  @Option(names = "--retry-initial-ms", description = "Wait before the first retry, doubled per retry"
      + " (default: ${DEFAULT-VALUE}).", defaultValue = "100")
  long retryInitialMs;

  @Option(names = "--retry-max-ms", description = "Longest wait between retries (default: ${DEFAULT-VALUE}).",
      defaultValue = "10000")
  long retryMaxMs;

  @Option(names = "--retry-jitter", description = "Largest fraction of a wait taken off at random, 0 to 1"
      + " (default: ${DEFAULT-VALUE}).", defaultValue = "0.5")
  double retryJitter;

  private RetryPolicy retryPolicy() {
    try {
      return new RetryPolicy(retryAttempts, Duration.ofMillis(retryInitialMs), Duration.ofMillis(retryMaxMs),
          retryJitter);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("--retry-*", e.getMessage());
    }
  }

  @Override
  public Integer call() throws Exception {
    try (IngestClient client = new IngestClient(SecurityConfigFiles.read(config, "--config"), host, port,
        retryPolicy())) {
      client.reset();
      long serverCpuBefore = client.serverCpuNanos();
      IngestResult r = client.ingest(new IngestOptions(entries, flushInterval, batchMemory, Duration.ofMinutes(2),
          writeThreads, seed));
      long serverCpu = client.serverCpuNanos() - serverCpuBefore;
      double seconds = r.elapsedNanos() / 1e9;
      System.out.printf(Locale.ROOT, "%,d entries in %.3f s: %,.0f entries/s, %.1f MB/s; client cpu %.2f s, server cpu"
          + " %.2f s%n", r.entries(), seconds, r.entries() / seconds, r.bytes() / seconds / 1e6,
          r.clientCpuNanos() / 1e9, serverCpu / 1e9);
      RetryCounters.Snapshot retries = client.retries();
      System.out.printf(Locale.ROOT, "retries %d, reconnects %d, time lost %.1f s%n", retries.retries(),
          retries.reconnects(), retries.nanosLost() / 1e9);
      if (verify) {
        VerifyResult v = client.verify();
        System.out.printf(Locale.ROOT, "verify: REFERENCED=%d UNREFERENCED=%d UNDEFINED=%d CORRUPT=%d -> %s%n",
            v.referenced(), v.unreferenced(), v.undefined(), v.corrupt(), v.passed() ? "passed" : "FAILED");
        return v.passed() ? 0 : 1;
      }
    }
    return 0;
  }
}
