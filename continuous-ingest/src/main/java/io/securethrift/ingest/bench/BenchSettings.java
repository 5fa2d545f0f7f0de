package io.securethrift.ingest.bench;

import io.securethrift.core.ConfigException;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Locale;

/**
 * What an ingest benchmark run does. Validated on construction, so a bad setting stops the run before any process
 * starts.
 *
 * @param backend which {@link IngestBackend} runs the levels ({@code embedded} by default)
 * @param backendOptions settings only that backend understands
 * @param modes the security levels, the first being the baseline for percentages
 * @param iterations measured runs per level, interleaved round-robin across levels
 * @param entries entries per run
 * @param warmupEntries entries of one unmeasured run per level first, so every JVM is warm; 0 skips it
 * @param flushInterval entries between the generator's flushes
 * @param batchMemory batch writer memory in bytes
 * @param maxLatency batch writer maximum latency
 * @param writeThreads batch writer threads
 * @param seed generator seed, the same for every level
 * @param writeAheadLog whether the server logs every batch to local disk and syncs on flush
 * @param output where the CSV, JSON and HTML results go
 * @param server the server model of the embedded backend
 */
public record BenchSettings(String backend, Map<String, String> backendOptions, List<String> modes, int iterations, long entries, long warmupEntries, int flushInterval,
    long batchMemory, Duration maxLatency, int writeThreads, long seed, boolean writeAheadLog, Path output,
    ServerModel server) {

  /** Settings with the thread-pool server, the default until the non-blocking one has passed every test. */
  public BenchSettings(String backend, Map<String, String> backendOptions, List<String> modes, int iterations,
      long entries, long warmupEntries, int flushInterval, long batchMemory, Duration maxLatency, int writeThreads,
      long seed, boolean writeAheadLog, Path output) {
    this(backend, backendOptions, modes, iterations, entries, warmupEntries, flushInterval, batchMemory, maxLatency,
        writeThreads, seed, writeAheadLog, output, ServerModel.THREADPOOL);
  }

  public BenchSettings {
    Objects.requireNonNull(server, "server");
    if (server != ServerModel.THREADPOOL && !backend.equals("embedded")) {
      throw new ConfigException("--server", "applies to the embedded backend only; the " + backend
          + " backend runs its own servers");
    }
    backendOptions = Map.copyOf(backendOptions);
    modes = List.copyOf(ModeNames.canonical(modes));
    if (modes.isEmpty()) {
      throw new ConfigException("--modes", "empty; name at least one mode");
    }
    if (modes.stream().distinct().count() != modes.size()) {
      throw new ConfigException("--modes", "a mode is listed twice in " + modes);
    }
    atLeast("--iterations", iterations, 1);
    atLeast("--entries", entries, 1);
    atLeast("--warmup-entries", warmupEntries, 0);
    atLeast("--flush-interval", flushInterval, 1);
    atLeast("--batch-memory", batchMemory, 1024);
    if (writeThreads < 1 || writeThreads > 64) {
      throw new ConfigException("--write-threads", writeThreads + " is outside 1 to 64");
    }
    if (maxLatency.isNegative() || maxLatency.isZero()) {
      throw new ConfigException("--max-latency", "must be greater than zero");
    }
  }

  private static void atLeast(String option, long value, long min) {
    if (value < min) {
      throw new ConfigException(option, value + " is less than " + min);
    }
  }

  /** One line naming the settings, printed above the table. */
  String describe() {
    return String.format(Locale.ROOT, "%,d entries x %d iterations per mode, flush every %,d, batch writer %,d bytes"
        + " / %d threads%s, seed %d, %s server", entries, iterations, flushInterval, batchMemory, writeThreads,
        writeAheadLog ? ", write-ahead log on" : "", seed, server.token());
  }
}
