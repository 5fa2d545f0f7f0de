package io.securethrift.ingest.bench;

import io.securethrift.harness.BenchMode;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.WarmUp;
import io.securethrift.core.ConfigException;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What an ingest benchmark run does. Validated on construction, so a bad setting stops the run before any process
 * starts. {@link #builder()} starts from the command's defaults.
 *
 * @param backend which {@link IngestBackend} runs the levels ({@code embedded} by default)
 * @param backendOptions settings only that backend understands
 * @param modes the security levels, the first being the baseline of every overhead
 * @param servers the server models of the embedded backend; each runs every mode, with its own baseline
 * @param forks JVM pairs per mode and server model of the embedded backend, which take the measured rounds in turn
 *     (every one runs each warm-up round), so that how one pair's JIT compiled a path counts as noise, not as the
 *     answer
 * @param stoppingRule when the run stops adding rounds: after a fixed number, or once every interval is within its
 *     precision target or the time is up (the budget counts start-up and warm-up)
 * @param warmupRounds rounds run first like measured ones and never analysed (see {@link WarmUp}); 0 for none
 * @param entries entries per iteration, or 0 to size iterations to {@code iterationTime} from the warm-up; by
 *     default {@link #DEFAULT_ENTRIES} unless {@code duration} is given
 * @param iterationTime how long an iteration of the fastest mode should take when {@code entries} is 0
 * @param duration time-based iterations (Accumulo's continuous ingest) of this length instead of a fixed count;
 *     zero for count-based
 * @param warmupEntries entries of each warm-up iteration; -1 for as many as a measured iteration; 0 skips the
 *     warm-up
 * @param flushInterval entries between the generator's flushes
 * @param batchMemory batch writer memory in bytes
 * @param maxLatency batch writer maximum latency
 * @param writeThreads batch writer threads
 * @param turnEntries entries per turn where a mode and its own baseline take turns in one client (see
 *     {@link TakingTurns}); 0 runs them one whole iteration after the other
 * @param seed generator seed, the same for every level
 * @param writeAheadLog whether the server logs every batch to local disk and syncs on flush
 * @param output where the CSV, JSON and HTML results go
 */
public record BenchSettings(String backend, Map<String, String> backendOptions, List<String> modes,
    List<ServerModel> servers, int forks, StoppingRule stoppingRule, int warmupRounds, long entries,
    Duration iterationTime, Duration duration, long warmupEntries, int flushInterval, long batchMemory,
    Duration maxLatency, int writeThreads, long turnEntries, long seed, boolean writeAheadLog, Path output) {
  /**
   * Entries per iteration by default: about half a second of the fastest mode on this project's 2-core machine. The
   * same count in every run, because a run's cost per entry includes each iteration's connection set-up (its TLS and
   * Kerberos handshakes): iterations sized from a warm-up's rate would differ from run to run with the machine's
   * speed, and so would that share.
   */
  public static final long DEFAULT_ENTRIES = 500_000;
  /**
   * Adaptive to +/-3 points within 280 s: counted from the launcher's start, so that with its build the default
   * command ends within 5 minutes on this project's 2-core machine.
   */
  public static final StoppingRule DEFAULT_STOPPING = new StoppingRule(3.0, Duration.ofSeconds(280), 5, 0);
  /**
   * Three warm-up rounds, by default 1.5 million entries through each JVM pair's secured and baseline paths: after a
   * single warm-up iteration the first measured round's overheads came out about 60 % too high and the next ones
   * scattered up to twice as widely as later ones (see {@link WarmUp}); three rounds take most of that out of the
   * analysis for the time of two measured rounds out of about seventeen.
   */
  public static final int DEFAULT_WARMUP_ROUNDS = 3;
  /**
   * A mode and its own baseline take turns of this many entries, a tenth of a second or so on this project's machine:
   * short beside the seconds-long steps in which the machine's CPU time for the same work moves, long beside the 10 ms
   * in which the OS counts CPU time.
   */
  public static final long DEFAULT_TURN_ENTRIES = 100_000;
  /**
   * Two JVM pairs per mode on the embedded backend, as JMH forks: in three idle runs with one pair each, a mode's CPU
   * overhead differed between runs by up to 7 points while each run's interval was about +/-5 points wide. What
   * stays with one JVM pair for its life (how its JIT compiled the path) no resampling of that pair's rounds can
   * show; with two pairs it is in the interval.
   */
  public static final int DEFAULT_FORKS = 2;

  public BenchSettings {
    backendOptions = Map.copyOf(backendOptions);
    modes = modes.stream().map(m -> BenchMode.parse("--modes", m).onDefaultEngine(IngestBackend.TLS_ENGINE).name())
        .toList();
    servers = List.copyOf(servers);
    if (modes.isEmpty()) {
      throw new ConfigException("--modes", "empty; name at least one mode");
    }
    if (modes.stream().distinct().count() != modes.size()) {
      throw new ConfigException("--modes", "a mode is listed twice in " + modes);
    }
    if (servers.isEmpty() || servers.stream().distinct().count() != servers.size()) {
      throw new ConfigException("--server", "name each server model once, at least one: "
          + servers.stream().map(ServerModel::token).toList());
    }
    if (!servers.equals(List.of(ServerModel.THREADPOOL)) && !backend.equals("embedded")) {
      throw new ConfigException("--server", "applies to the embedded backend only; the " + backend
          + " backend runs its own servers");
    }
    if (forks < 1 || forks > 8) {
      throw new ConfigException("--forks", forks + " is outside 1 to 8");
    }
    if (forks > 1 && !backend.equals("embedded")) {
      throw new ConfigException("--forks", "applies to the embedded backend only; the " + backend
          + " backend runs one cluster per mode");
    }
    Objects.requireNonNull(stoppingRule, "stoppingRule");
    atLeast("--warmup-rounds", warmupRounds, 0);
    atLeast("--entries", entries, 0);
    positive("--iteration-time", iterationTime);
    if (duration.isNegative()) {
      throw new ConfigException("--duration", "must not be negative");
    }
    if (entries > 0 && !duration.isZero()) {
      throw new ConfigException("--duration", "and --entries both size an iteration; give one of them");
    }
    atLeast("--warmup-entries", warmupEntries, -1);
    if (entries == 0 && duration.isZero() && (warmupEntries == 0 || warmupRounds == 0)) {
      throw new ConfigException(warmupEntries == 0 ? "--warmup-entries" : "--warmup-rounds", "0 leaves nothing to"
          + " size the iterations from; give --entries or --duration, or keep a warm-up");
    }
    atLeast("--flush-interval", flushInterval, 1);
    atLeast("--batch-memory", batchMemory, 1024);
    if (writeThreads < 1 || writeThreads > 64) {
      throw new ConfigException("--write-threads", writeThreads + " is outside 1 to 64");
    }
    atLeast("--turn-entries", turnEntries, 0);
    positive("--max-latency", maxLatency);
    Objects.requireNonNull(output, "output");
  }

  private static void atLeast(String option, long value, long min) {
    if (value < min) {
      throw new ConfigException(option, value + " is less than " + min);
    }
  }

  private static void positive(String option, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new ConfigException(option, "must be greater than zero");
    }
  }

  /**
   * The command's defaults: every mode of the embedded backend, {@link #DEFAULT_WARMUP_ROUNDS} warm-up rounds, then
   * {@link #DEFAULT_STOPPING}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** One line naming the settings, printed above the table. */
  String describe() {
    String length = !duration.isZero() ? "time-based iterations of " + seconds(duration)
        : entries > 0 ? String.format(Locale.ROOT, "%,d entries per iteration", entries)
        : "iterations sized to " + seconds(iterationTime) + " of the fastest mode";
    String warmUp = WarmUp.describe(warmupEntries == 0 ? 0 : warmupRounds)
        + (warmupEntries > 0 && warmupRounds > 0 ? String.format(Locale.ROOT, " of %,d entries", warmupEntries) : "");
    String turns = turnEntries > 0 && duration.isZero()
        ? String.format(Locale.ROOT, ", each mode taking turns of %,d entries with its own baseline", turnEntries) : "";
    String pairs = forks > 1 ? String.format(Locale.ROOT, ", %d JVM pairs per mode taking the rounds in turn", forks)
        : "";
    return String.format(Locale.ROOT, "%s%s%s, %s, then %s; flush every %,d, batch writer %,d bytes / %d"
        + " threads%s, seed %d, %s server%s", length, turns, pairs, warmUp, stoppingRule.describe("interval"),
        flushInterval, batchMemory, writeThreads, writeAheadLog ? ", write-ahead log on" : "", seed,
        String.join(" and ", servers.stream().map(ServerModel::token).toList()), servers.size() > 1 ? "s" : "");
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  /** The settings as the result file's {@code settings} object. */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("backend", backend);
    m.put("backendOptions", new LinkedHashMap<String, Object>(backendOptions));
    m.put("modes", String.join(",", modes));
    m.put("servers", String.join(",", servers.stream().map(ServerModel::token).toList()));
    m.put("forks", forks);
    m.putAll(stoppingRule.settings());
    m.put("warmupRounds", warmupRounds);
    m.put("entries", entries);
    m.put("iterationTimeSeconds", iterationTime.toMillis() / 1000.0);
    m.put("durationSeconds", duration.toMillis() / 1000.0);
    m.put("warmupEntries", warmupEntries);
    m.put("flushInterval", flushInterval);
    m.put("batchMemory", batchMemory);
    m.put("maxLatencyMs", maxLatency.toMillis());
    m.put("writeThreads", writeThreads);
    m.put("turnEntries", turnEntries);
    m.put("seed", seed);
    m.put("writeAheadLog", writeAheadLog);
    return m;
  }

  /** Settings field by field, starting from the command's defaults. */
  public static final class Builder {
    private String backend = "embedded";
    private Map<String, String> backendOptions = Map.of();
    private List<String> modes;
    private List<ServerModel> servers = List.of(ServerModel.THREADPOOL);
    private Integer forks;
    private StoppingRule stoppingRule = DEFAULT_STOPPING;
    private int warmupRounds = DEFAULT_WARMUP_ROUNDS;
    private Long entries;
    private Duration iterationTime = Duration.ofSeconds(1);
    private Duration duration = Duration.ZERO;
    private long warmupEntries = -1;
    private int flushInterval = 10_000;
    private long batchMemory = 500_000;
    private Duration maxLatency = Duration.ofMinutes(2);
    private int writeThreads = 3;
    private long turnEntries = DEFAULT_TURN_ENTRIES;
    private long seed = 42;
    private boolean writeAheadLog;
    private Path output = Path.of("ingest-results");

    private Builder() {}

    public Builder backend(String value) {
      backend = value;
      return this;
    }

    public Builder backendOptions(Map<String, String> value) {
      backendOptions = value;
      return this;
    }

    /** The modes; by default every mode of the backend. */
    public Builder modes(List<String> value) {
      modes = value;
      return this;
    }

    public Builder servers(List<ServerModel> value) {
      servers = value;
      return this;
    }

    /** JVM pairs per mode; unless set, {@link #DEFAULT_FORKS} on the embedded backend and 1 on others. */
    public Builder forks(int value) {
      forks = value;
      return this;
    }

    public Builder stoppingRule(StoppingRule value) {
      stoppingRule = value;
      return this;
    }

    /** Exactly {@code value} rounds: {@link StoppingRule#fixed}. */
    public Builder rounds(int value) {
      return stoppingRule(StoppingRule.fixed(value));
    }

    public Builder warmupRounds(int value) {
      warmupRounds = value;
      return this;
    }

    /** Entries per iteration; unless set, {@link #DEFAULT_ENTRIES}, or 0 with a duration. */
    public Builder entries(long value) {
      entries = value;
      return this;
    }

    public Builder iterationTime(Duration value) {
      iterationTime = value;
      return this;
    }

    public Builder duration(Duration value) {
      duration = value;
      return this;
    }

    public Builder warmupEntries(long value) {
      warmupEntries = value;
      return this;
    }

    public Builder flushInterval(int value) {
      flushInterval = value;
      return this;
    }

    public Builder batchMemory(long value) {
      batchMemory = value;
      return this;
    }

    public Builder maxLatency(Duration value) {
      maxLatency = value;
      return this;
    }

    public Builder writeThreads(int value) {
      writeThreads = value;
      return this;
    }

    public Builder turnEntries(long value) {
      turnEntries = value;
      return this;
    }

    public Builder seed(long value) {
      seed = value;
      return this;
    }

    public Builder writeAheadLog(boolean value) {
      writeAheadLog = value;
      return this;
    }

    public Builder output(Path value) {
      output = value;
      return this;
    }

    public BenchSettings build() {
      return new BenchSettings(backend, backendOptions, modes == null ? IngestBenchmark.modesOf(backend) : modes,
          servers, forks != null ? forks : backend.equals("embedded") ? DEFAULT_FORKS : 1, stoppingRule,
          warmupRounds,
          entries != null ? entries : duration.isZero() ? DEFAULT_ENTRIES : 0, iterationTime, duration, warmupEntries,
          flushInterval, batchMemory, maxLatency, writeThreads, turnEntries, seed, writeAheadLog, output);
    }
  }
}
