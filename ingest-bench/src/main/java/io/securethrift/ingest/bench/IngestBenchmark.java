package io.securethrift.ingest.bench;

import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.Forks;
import io.securethrift.harness.MachineMemory;
import io.securethrift.harness.MeasuredRounds;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ProgressLog;
import io.securethrift.harness.RecordCost;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.TargetSample;
import io.securethrift.harness.WarmUp;
import io.securethrift.harness.WorkDirectory;
import io.securethrift.harness.Workload;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.server.ServerModel;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs the continuous-ingest workload over every security level (for every server model asked for) and reports what
 * each costs. It starts a real KDC and test CA in this process and asks the backend for one target per server model
 * and level. After its warm-up rounds ({@link WarmUp}: rounds like the measured ones, never analysed; and, when
 * iterations are sized from them, up to three sizing rounds until the fastest level's iteration takes the iteration
 * time), rounds of one iteration per target follow, in the same order every round so that drift of the machine hits
 * each level alike; every iteration starts from an empty table and is verified after. Each level's overhead is its
 * cost divided by the baseline's in the same round, and rounds are added until every interval is as narrow as asked
 * or the time is up (see {@link StoppingRule}).
 *
 * <p>Where the backend runs the baseline in each level's own processes ({@link IngestBackend.Target#baseline()}),
 * every round runs it with the level's iteration and the level is divided by that, so the lasting differences between
 * separate JVMs do not enter its overhead. Where the target can, the two take turns of a tenth of a second or so in
 * one client ({@link IngestBackend.Target#ingestInTurns}, {@link TakingTurns}), so both meet the machine in the same
 * state; else they run as whole iterations side by side. Either way the baseline goes first on odd rounds and second
 * on even ones, so a steady drift of the machine cancels. Those rows are the variant {@code level/baseline}, for
 * example {@code tls-jsse/none}.
 */
public final class IngestBenchmark {
  /** The wall-time metric: elapsed time per entry. */
  static final String WALL = "wall";
  /** The CPU metric: client plus server CPU time per entry. */
  static final String CPU = "cpu";
  /** The bootstrap's seed: fixed, so the same raw data always gives the same intervals. */
  private static final long SEED = 1_700_000_017L;
  /**
   * When iterations are sized from the warm-up, a round whose fastest iteration took less than this share of the
   * iteration time becomes a warm-up too and sizes the next, at most {@link #MAX_SIZING_ROUNDS} times.
   */
  private static final double SHORT = 0.8;
  private static final int MAX_SIZING_ROUNDS = 3;

  private final BenchSettings settings;
  private final IngestBackend backend;
  /**
   * Memory kept back from the targets: this JVM's own growth (the KDC, the results) and the page cache the
   * write-ahead logs write through.
   */
  private static final long LAUNCHER_RESERVE = 1L << 30;
  private final ProgressLog progress = new ProgressLog(System.err);
  /** When the command was typed, if earlier than this object (the launcher's build); null when not known. */
  private Instant launched;

  /** Checks the settings against the chosen backend; nothing starts until {@link #run()}. */
  public IngestBenchmark(BenchSettings settings) {
    this.settings = settings;
    this.backend = backend(settings.backend());
    backend.modes().parse("--modes", settings.modes());
  }

  /**
   * Counts the stopping rule's {@link StoppingRule#maxTime()} from {@code instant} rather than from {@link #run()}:
   * the launcher passes the moment it was started, so that the time it spent building counts against the budget.
   */
  public IngestBenchmark launchedAt(Instant instant) {
    launched = instant;
    return this;
  }

  /** The modes a backend runs, for a default of "all of them"; an unknown backend is reported by the constructor. */
  public static List<String> modesOf(String backend) {
    return backends().stream().filter(b -> b.name().equals(backend)).findFirst().map(b -> b.modes().names())
        .orElse(List.of("none"));
  }

  /** The backends on the class path, by name. */
  static List<IngestBackend> backends() {
    List<IngestBackend> found = new ArrayList<>();
    ServiceLoader.load(IngestBackend.class, IngestBenchmark.class.getClassLoader()).forEach(found::add);
    return found;
  }

  /** The backend {@code --backend} names, or a {@link ConfigException} listing the available ones. */
  public static IngestBackend backend(String name) {
    List<IngestBackend> all = backends();
    return all.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow(() -> new ConfigException(
        "--backend", "'" + name + "' is not available; available: "
            + all.stream().map(IngestBackend::name).collect(Collectors.joining(", "))));
  }

  /** Runs everything and returns the report; throws if any iteration fails verification. */
  public String run() throws IOException {
    RunInfo.Start start = RunInfo.start(RunInfo.launcherCommit());
    WorkDirectory workDirectory = WorkDirectory.create("securethrift-ingest-");
    Path work = workDirectory.path();
    try (BenchSecurity security = new BenchSecurity(work)) {
      Map<TargetKey, List<IngestBackend.Target>> targets = new LinkedHashMap<>();
      OptionalLong memoryPerTarget = memoryPerTarget(settings.servers().size() * settings.forks()
          * settings.modes().size());
      try {
        for (ServerModel server : settings.servers()) {
          for (int fork = 0; fork < settings.forks(); fork++) {
            // Each server model's and fork's configuration files and logs apart: the embedded backend names them by
            // mode.
            BenchEnvironment environment = new BenchEnvironment(Files.createDirectories(work.resolve(server.token())
                .resolve("fork-" + fork)), security, settings.writeAheadLog(), settings.backendOptions(), server,
                memoryPerTarget);
            for (String mode : settings.modes()) {
              targets.computeIfAbsent(new TargetKey(server.token(), mode), k -> new ArrayList<>())
                  .add(backend.start(mode, environment));
            }
          }
        }
        return measure(targets, start, security);
      } finally {
        targets.values().forEach(forks -> forks.forEach(IngestBackend.Target::close));
      }
    } finally {
      workDirectory.close();
    }
  }

  /** One target: a server model and a security level. */
  private record TargetKey(String server, String mode) {
    @Override
    public String toString() {
      return server + " " + mode;
    }
  }

  private String measure(Map<TargetKey, List<IngestBackend.Target>> targets, RunInfo.Start start,
      BenchSecurity security) throws IOException {
    StoppingRule rule = settings.stoppingRule();
    MeasuredRounds.Outcome outcome = MeasuredRounds.run(new Ingests(targets, start), rule, () -> spent(start),
        progress);
    List<Measurement> rows = outcome.rows();
    StoppingRule.Decision decision = outcome.decision();
    List<Overhead> all = overheads(rows);
    String stopMetric = stopMetric(rows);
    List<ModeSummary> summaries = new ArrayList<>();
    for (TargetKey key : targets.keySet()) {
      List<Measurement> own = rows.stream().filter(m -> !m.warmUp() && m.group().equals(key.server())
          && m.variant().equals(key.mode())).collect(Collectors.toList());
      summaries.add(ModeSummary.of(key.server(), key.mode(), own,
          BenchReport.overheadOf(all, key.server(), key.mode(), WALL, baseline()),
          BenchReport.overheadOf(all, key.server(), key.mode(), CPU, baseline())));
    }
    Map<String, Object> settingsMap = settings.toMap();
    settingsMap.put("precisionMetric", stopMetric);
    Map<String, RecordCost> recordCosts = recordCosts(security);
    BenchReport report = new BenchReport(backend.name() + " backend: " + settings.describe(), settingsMap,
        start.finish(), rule, decision, stopMetric, baseline(), summaries, all, rows, recordCosts);
    List<Path> files = report.write(settings.output());
    StringBuilder out = new StringBuilder(report.table());
    files.forEach(f -> out.append("wrote ").append(f).append('\n'));
    return out.toString();
  }

  /**
   * Each TLS mode's engine record cost, measured after the rounds so that it takes no CPU from them. A mode whose
   * engines cannot be set up here is reported without one, and says why.
   */
  private Map<String, RecordCost> recordCosts(BenchSecurity security) {
    Map<String, RecordCost> costs = new LinkedHashMap<>();
    for (String mode : settings.modes()) {
      try {
        RecordCost cost = RecordCost.of(security, BenchMode.parse("--modes", mode));
        if (cost.measured()) {
          costs.put(mode, cost);
          progress.step(mode + " record cost: " + cost);
        }
      } catch (IOException | GeneralSecurityException e) {
        progress.step(mode + " record cost not measured: " + e.getMessage());
      }
    }
    return costs;
  }

  /**
   * The targets as a workload: every target's iterations, each mode beside its baseline; the stopping metric's
   * overheads decide. Iterations not sized by the settings are sized from the warm-up, and a measured round whose
   * fastest iteration fell well short of the iteration time is kept as a warm-up row and run again, larger.
   */
  private final class Ingests implements Workload {
    private final Map<TargetKey, List<IngestBackend.Target>> targets;
    private final RunInfo.Start start;
    private IngestOptions measured;
    private boolean sizing = settings.entries() == 0 && settings.duration().isZero();
    private int sizingRounds;

    Ingests(Map<TargetKey, List<IngestBackend.Target>> targets, RunInfo.Start start) {
      this.targets = targets;
      this.start = start;
    }

    @Override
    public List<Measurement> warmUp(StoppingRule rule, Supplier<Duration> elapsed, ProgressLog log)
        throws IOException {
      List<Measurement> rows = new ArrayList<>();
      if (settings.warmupEntries() != 0) {
        IngestOptions warmup = settings.warmupEntries() > 0 ? options(settings.warmupEntries(), Duration.ZERO)
            : !settings.duration().isZero() ? options(0, settings.duration())
            : settings.entries() > 0 ? options(settings.entries(), Duration.ZERO)
            : options(0, settings.iterationTime());
        rows.addAll(WarmUp.run(settings.warmupRounds(), r -> IngestBenchmark.this.round(targets, warmup, r), rule,
            elapsed, log::step));
      }
      measured = measuredOptions(rows);
      return rows;
    }

    @Override
    public List<Measurement> round(int round) throws IOException {
      List<Measurement> sizingRows = new ArrayList<>();
      while (true) {
        long roundStart = System.nanoTime();
        List<Measurement> done = IngestBenchmark.this.round(targets, measured, round);
        Duration roundTime = Duration.ofNanos(System.nanoTime() - roundStart);
        if (!sizing || sizingRounds >= MAX_SIZING_ROUNDS || !tooShort(done)
            || spent(start).plus(roundTime).compareTo(settings.stoppingRule().maxTime()) > 0) {
          sizing = false;
          sizingRows.addAll(done);
          return sizingRows;
        }
        // A cold warm-up underestimates the warm rate several times over: this round only sized the next one. (Unless
        // the time left has no room for another round: then it is measured, short as it is.)
        done.forEach(m -> sizingRows.add(new Measurement(m.group(), m.variant(), 0, m.values())));
        measured = sized(done, "round " + round + " was short");
        sizingRounds++;
      }
    }

    @Override
    public List<Overhead> deciding(List<Measurement> rows) {
      return only(overheads(rows), stopMetric(rows));
    }
  }

  /** The time the budget has used: since the launcher started when it said so, else since {@link #run()}. */
  private Duration spent(RunInfo.Start start) {
    Duration before = launched == null ? Duration.ZERO : Duration.between(launched, start.started());
    return start.elapsed().plus(before.isNegative() ? Duration.ZERO : before);
  }

  /**
   * Both overheads of every mode (against the baseline in its own processes where it ran one): wall time per entry,
   * and CPU per entry where both sides' CPU is known.
   */
  private List<Overhead> overheads(List<Measurement> rows) {
    List<Overhead> all = new ArrayList<>(PairedAnalysis.overheads(rows, baseline(), WALL, IterationRow::wallPerEntry,
        SEED));
    if (stopMetric(rows).equals(CPU)) {
      all.addAll(PairedAnalysis.overheads(rows, baseline(), CPU, IterationRow::cpuPerEntry, SEED));
    }
    return all;
  }

  /**
   * The metric whose intervals end an adaptive run: CPU per entry, which a neighbour on the machine barely moves and
   * which is what a cluster is sized with, unless a backend cannot read a side's CPU (then wall time).
   */
  private static String stopMetric(List<Measurement> rows) {
    return rows.stream().filter(m -> !m.warmUp()).noneMatch(m -> Double.isNaN(IterationRow.cpuPerEntry(m))) ? CPU
        : WALL;
  }

  private static List<Overhead> only(List<Overhead> overheads, String metric) {
    return overheads.stream().filter(o -> o.metric().equals(metric)).collect(Collectors.toList());
  }

  private String baseline() {
    return settings.modes().get(0);
  }

  /**
   * What every measured iteration runs: the settings' duration or entries, else enough entries that the fastest
   * warm-up would have taken {@link BenchSettings#iterationTime()}, rounded up to a flush, the same for every target
   * so that wall times compare directly.
   */
  private IngestOptions measuredOptions(List<Measurement> warmups) {
    if (!settings.duration().isZero()) {
      return options(0, settings.duration());
    }
    if (settings.entries() > 0) {
      return options(settings.entries(), Duration.ZERO);
    }
    return sized(warmups, "from the warm-up");
  }

  /** Entries for an iteration of {@link BenchSettings#iterationTime()} at the fastest rate {@code rows} show. */
  private IngestOptions sized(List<Measurement> rows, String why) {
    double fastest = rows.stream().mapToDouble(m -> m.value(IterationRow.ENTRIES) / m.value(IterationRow.WALL_MS))
        .max().orElseThrow();
    long flush = settings.flushInterval();
    long entries = (long) Math.ceil(fastest * settings.iterationTime().toMillis() / flush) * flush;
    progress.step(String.format(Locale.ROOT, "iterations sized %s: %,d entries each (the fastest ran %,.0f"
        + " entries/s)", why, entries, fastest * 1e3));
    return options(entries, Duration.ZERO);
  }

  /** Whether the fastest iteration of a round fell well short of {@link BenchSettings#iterationTime()}. */
  private boolean tooShort(List<Measurement> round) {
    double fastestMs = round.stream().mapToDouble(m -> m.value(IterationRow.WALL_MS)).min().orElseThrow();
    return fastestMs < SHORT * settings.iterationTime().toMillis();
  }

  private IngestOptions options(long entries, Duration duration) {
    return new IngestOptions(entries, settings.flushInterval(), settings.batchMemory(), settings.maxLatency(),
        settings.writeThreads(), settings.seed(), duration);
  }

  /**
   * Each target's share of the memory this machine has available now, before the first target starts (they all live
   * until the run ends), less {@link #LAUNCHER_RESERVE}; the line on standard error says what it was.
   */
  private OptionalLong memoryPerTarget(int count) {
    OptionalLong available = MachineMemory.availableBytes();
    if (available.isEmpty()) {
      return available;
    }
    long share = Math.max(0, available.getAsLong() - LAUNCHER_RESERVE) / count;
    progress.step(String.format(Locale.ROOT, "%,d targets share %,d MB of available memory: %,d MB each", count,
        available.getAsLong() >> 20, share >> 20));
    return OptionalLong.of(share);
  }

  /**
   * One round: every target's iterations in the same order, numbered {@code round}. A warm-up round runs every fork
   * of a target, so each has compiled its paths before it is measured; a measured round runs one
   * ({@link Forks#measuring}).
   */
  private List<Measurement> round(Map<TargetKey, List<IngestBackend.Target>> targets, IngestOptions options,
      int round) throws IOException {
    List<Measurement> done = new ArrayList<>();
    for (Map.Entry<TargetKey, List<IngestBackend.Target>> t : targets.entrySet()) {
      List<IngestBackend.Target> forks = t.getValue();
      if (round <= 0) {
        for (int fork = 0; fork < forks.size(); fork++) {
          done.addAll(iterations(t.getKey(), forks.get(fork), fork, options, round));
        }
      } else {
        int fork = Forks.measuring(round, forks.size());
        done.addAll(iterations(t.getKey(), forks.get(fork), fork, options, round));
      }
    }
    return done;
  }

  /**
   * One round's iterations of a target: its own, and the baseline in its processes when it runs one, taking turns with
   * it where the target can (else right beside it, before it in odd rounds and after it in even ones).
   */
  private List<Measurement> iterations(TargetKey key, IngestBackend.Target target, int fork, IngestOptions options,
      int round) throws IOException {
    Optional<IngestBackend.Target> own = target.baseline();
    if (own.isEmpty()) {
      return List.of(iteration(key.server(), key.mode(), target, fork, options, round));
    }
    String ownBaseline = PairedAnalysis.ownBaseline(key.mode(), baseline());
    boolean baselineFirst = PairedAnalysis.ownBaselineFirst(round);
    if (settings.turnEntries() > 0 && !options.timeBased() && target.takesTurns()) {
      return inTurns(key, ownBaseline, target, own.get(), fork, options, round, baselineFirst);
    }
    List<Measurement> done = new ArrayList<>();
    if (baselineFirst) {
      done.add(iteration(key.server(), ownBaseline, own.get(), fork, options, round));
    }
    done.add(iteration(key.server(), key.mode(), target, fork, options, round));
    if (!baselineFirst) {
      done.add(iteration(key.server(), ownBaseline, own.get(), fork, options, round));
    }
    return done;
  }

  private Measurement iteration(String server, String variant, IngestBackend.Target target, int fork,
      IngestOptions options, int round) throws IOException {
    target.reset();
    TargetSample before = target.sample();
    IngestResult result = target.ingest(options);
    TargetSample used = target.sample().minus(before);
    return verified(server, variant, fork, round, target, result, used, "");
  }

  /**
   * One round's iterations of a target and its own baseline taking turns ({@link IngestBackend.Target#ingestInTurns}):
   * two rows, the side that took the first turn first.
   */
  private List<Measurement> inTurns(TargetKey key, String ownBaseline, IngestBackend.Target target,
      IngestBackend.Target own, int fork, IngestOptions options, int round, boolean baselineFirst)
      throws IOException {
    target.reset();
    own.reset();
    List<IngestBackend.TurnAccount> sides = target.ingestInTurns(options, settings.turnEntries(), baselineFirst);
    Measurement secured = verified(key.server(), key.mode(), fork, round, target, sides.get(0));
    Measurement baselineRow = verified(key.server(), ownBaseline, fork, round, own, sides.get(1));
    return baselineFirst ? List.of(baselineRow, secured) : List.of(secured, baselineRow);
  }

  private Measurement verified(String server, String variant, int fork, int round, IngestBackend.Target target,
      IngestBackend.TurnAccount side) throws IOException {
    return verified(server, variant, fork, round, target, side.result(), side.used(),
        String.format(Locale.ROOT, " over %d turns", side.turns()));
  }

  /** Verifies what an iteration wrote, says so, and makes its raw row; fails the run if verification fails. */
  private Measurement verified(String server, String variant, int fork, int round, IngestBackend.Target target,
      IngestResult result, TargetSample used, String how) throws IOException {
    String name = server + " " + variant;
    String label = WarmUp.label(round) + (settings.forks() > 1 ? " (fork " + (fork + 1) + ")" : "");
    long verifyStart = System.nanoTime();
    VerifyResult v = target.verify();
    long verifyNanos = System.nanoTime() - verifyStart;
    if (!v.passed()) {
      throw new IllegalStateException("verification failed for " + name + " " + label + ": UNDEFINED="
          + v.undefined() + " CORRUPT=" + v.corrupt() + " REFERENCED=" + v.referenced() + " UNREFERENCED="
          + v.unreferenced() + (v.undefinedExamples().isEmpty() ? "" : " undefined rows " + v.undefinedExamples()));
    }
    progress.step(String.format(Locale.ROOT, "%s %s: %,d entries in %,.0f ms%s (verified in %,.0f ms)", name, label,
        result.entries(), result.elapsedNanos() / 1e6, how, verifyNanos / 1e6));
    return IterationRow.of(server, variant, fork, round, result, used, v);
  }
}
