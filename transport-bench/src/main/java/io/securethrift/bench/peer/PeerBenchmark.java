package io.securethrift.bench.peer;

import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.MeasuredRounds;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ProgressLog;
import io.securethrift.harness.RecordCost;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.WarmUp;
import io.securethrift.harness.WorkDirectory;
import io.securethrift.harness.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs peer-bench: starts one JVM per cell (mode and pairing, see {@link PeerCell}), then a warm-up (turns repeated
 * while the JIT compiles, then a round like a measured one) and rounds in which, mode by mode and metric by metric,
 * the pairings' cells take turns at the metric (a round's seconds cut into {@code --turns} turns, each cell's turns
 * added up), the pairings' order rotating from round to round so no pairing always runs first. Short alternating
 * turns put the machine's slower and faster moments, and the scheduler's placements of client and server threads, on
 * every pairing alike. A pairing's cost in a round (time per operation) over libthrift's in the same round is one
 * ratio; rounds are added until every interval is as narrow as asked or the time is up ({@link StoppingRule}).
 */
public final class PeerBenchmark {
  /** The bootstrap's seed: fixed, so the same raw data always gives the same intervals. */
  static final long SEED = 20_260_021L;
  /** A warm-up turn is repeated while the cell's JIT compiled for more than this share of it. */
  static final double JIT_QUIET = 0.05;
  /**
   * The number of the warm-up's rows of JIT-quiet turns. Round 0 after it is a warm-up too, run exactly like a measured
   * round: after the turns the default budget affords, the first round like a measured one still came out far off
   * in two runs of 600 s, for every pairing (TLS 1 MiB echoes at 1.9 to 6.4 times the later rounds' median time per
   * operation, securethrift's cells the most), while the second round was close to the rest.
   */
  static final int WARM_UP_TURNS_ROUND = -1;
  /** The share of {@code --max-time} the warm-up must leave to the rounds. */
  static final double ROUNDS_SHARE = 0.4;
  /**
   * The cells' JVM options. securethrift's audit logger is off: libthrift writes nothing per connection, and the
   * launcher's logging configuration (simplelogger, for ingest-server's operators) would have every securethrift
   * server in a cell write a line to the cell's log, one formatted, unbuffered write per connection. That is the
   * logging backend's cost, which a deployment chooses, not the transport's.
   *
   * <p>G1's regions are 4 MiB, as in a server-sized heap (G1 makes them heap/2048: 4 MiB from 8 GiB), not the 1 MiB
   * it picks for 384 MiB. With 1 MiB regions every 1 MiB message buffer is a humongous object, allocated outside the
   * young generation, and at the bulk metric's rate of them G1 fell into bursts of 100 and more young collections a
   * second, each starting a concurrent cycle: the rounds with them cost 1.5 to 2 times the others' CPU per operation
   * and decided the 1 MiB rows' intervals. Both libraries' cells run with the same setting.
   */
  static final List<String> CELL_JVM_OPTIONS = List.of("-Xmx384m", "-XX:G1HeapRegionSize=4m",
      "-Dorg.slf4j.simpleLogger.log.securethrift.audit=warn");

  private final PeerSettings settings;
  private final ProgressLog progress;
  /** Warm-ups of a cell and metric not yet run. */
  private int warmUpsLeft;
  /** Warm-ups the budget stopped while the cell's JIT still compiled: cell name and metric. */
  private List<Map.Entry<String, PeerMetric>> cutShort = new ArrayList<>();

  public PeerBenchmark(PeerSettings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = new ProgressLog(progress);
  }

  /** Runs everything, writes the result files and returns the report. */
  public PeerReport run() throws Exception {
    RunInfo.Start start = RunInfo.start(RunInfo.launcherCommit());
    WorkDirectory work = WorkDirectory.create("peer-bench-");
    Path dir = work.path();
    Map<String, ChildJvm> cells = new LinkedHashMap<>();
    // The cells stop before the KDC they logged in with, and the directory goes last.
    try (BenchSecurity security = new BenchSecurity(dir)) {
      try {
        PeerMaterial peerMaterial = PeerMaterial.create(security, settings.sasl());
        Path material = peerMaterial.write(dir.resolve("material.properties"));
        Map<String, RecordCost> recordCosts = recordCosts(peerMaterial);
        // Every JVM starts before any is waited for: their start-ups and logins overlap.
        for (BenchMode mode : settings.modes()) {
          for (Pairing pairing : settings.pairings()) {
            String name = name(mode, pairing);
            cells.put(name, ChildJvm.builder(PeerCell.class).name("peer-bench cell " + name)
                .jvmOptions(CELL_JVM_OPTIONS).args(List.of(mode.name(), pairing.label(), material.toString()))
                .log(dir.resolve(name + ".log")).talk().start());
          }
        }
        for (ChildJvm cell : cells.values()) {
          cell.answer();
        }
        progress.step(cells.size() + " cells ready");
        PeerReport report = measure(cells, start, recordCosts);
        report.write(settings.output());
        return report;
      } finally {
        cells.values().forEach(ChildJvm::close);
      }
    } finally {
      work.close();
    }
  }

  private static String name(BenchMode mode, Pairing pairing) {
    return mode.name() + "-" + pairing.label();
  }

  /**
   * Each TLS mode's engine record cost in securethrift's configuration of the mode (engine and protocol version, as
   * its cells have them), measured here before any cell starts: the machine has nothing else to do yet, and the cells'
   * CPU columns hold none of it. A mode whose engines cannot be set up here is reported without one, and says why.
   */
  private Map<String, RecordCost> recordCosts(PeerMaterial material) {
    Map<String, RecordCost> costs = new LinkedHashMap<>();
    for (BenchMode mode : settings.modes()) {
      if (mode.tls()) {
        try {
          RecordCost cost = RecordCost.of(OurSide.config(mode, material, false), OurSide.config(mode, material, true));
          costs.put(mode.name(), cost);
          progress.step(mode.name() + " record cost: " + cost);
        } catch (IOException | GeneralSecurityException e) {
          progress.step(mode.name() + " record cost not measured: " + e.getMessage());
        }
      }
    }
    return costs;
  }

  private PeerReport measure(Map<String, ChildJvm> cells, RunInfo.Start start, Map<String, RecordCost> recordCosts)
      throws IOException {
    StoppingRule rule = settings.stoppingRule();
    MeasuredRounds.Outcome outcome = MeasuredRounds.run(new Cells(cells), rule, start::elapsed, progress);
    return new PeerReport(settings, start.finish(), rule, outcome.decision(), outcome.overheads(), outcome.rows(),
        recordCosts);
  }

  /** The cells as a workload: pairings taking turns at each metric, mode by mode. */
  private final class Cells implements Workload {
    private final Map<String, ChildJvm> cells;

    Cells(Map<String, ChildJvm> cells) {
      this.cells = cells;
    }

    /** Turns repeated while the JIT compiles ({@link #warmUp(ChildJvm, String, PeerMetric)}), then round 0. */
    @Override
    public List<Measurement> warmUp(StoppingRule rule, Supplier<Duration> elapsed, ProgressLog log)
        throws IOException {
      warmUpsLeft = cells.size() * settings.metrics().size();
      List<Measurement> rows = new ArrayList<>(PeerBenchmark.this.round(cells, WARM_UP_TURNS_ROUND));
      resumeWarmUps(cells);
      if (!cutShort.isEmpty()) {
        log.step(String.format(Locale.ROOT, "warm-up: %d of %d cells' metrics were still compiling when the"
            + " warm-up's time (%.0f %% of --max-time) was spent, their first rounds may be slower (%s); raise"
            + " --max-time for more", cutShort.size(), cells.size() * settings.metrics().size(),
            (1 - ROUNDS_SHARE) * 100, cutShort.stream().map(c -> c.getKey() + " " + c.getValue().name())
                .collect(Collectors.joining(", "))));
      }
      rows.addAll(PeerBenchmark.this.round(cells, 0));
      return rows;
    }

    @Override
    public List<Measurement> round(int round) throws IOException {
      return PeerBenchmark.this.round(cells, round);
    }

    @Override
    public List<Overhead> deciding(List<Measurement> rows) {
      return overheads(rows);
    }
  }

  /**
   * How many turns the next warm-up of a cell and metric may take: {@code --warm-up-turns}, or fewer when a run
   * stopped by time cannot afford them. The warm-up may last until {@link #ROUNDS_SHARE} of {@code --max-time} is
   * left, start-up included; each warm-up still to run gets an equal share of what is left of that, and at least one
   * turn. Most metrics are compiled after two or three turns, so their unused shares go to the ones that need more: a
   * new connection's TLS or Kerberos code, run once per connection, reaches the JIT's thresholds only after 20 or so
   * turns of a second.
   */
  static int warmUpTurnsAllowed(PeerSettings settings, double secondsSpent, int warmUpsLeft) {
    StoppingRule rule = settings.stoppingRule();
    if (rule.fixedRounds()) {
      return settings.warmUpTurns();
    }
    double secondsLeft = (1 - ROUNDS_SHARE) * rule.maxTime().toMillis() / 1000.0 - secondsSpent;
    double turns = secondsLeft / Math.max(1, warmUpsLeft) / Math.max(settings.warmUp(), 1e-3);
    return (int) Math.max(1, Math.min(settings.warmUpTurns(), Math.floor(turns)));
  }

  List<Overhead> overheads(List<Measurement> rows) {
    List<Overhead> all = new ArrayList<>();
    for (PeerMetric metric : settings.metrics()) {
      all.addAll(PairedAnalysis.overheads(rows, Pairing.BASELINE.label(), metric.name(),
          r -> r.value(metric.nanosColumn()) / r.value(metric.opsColumn()), SEED));
    }
    return all;
  }

  /**
   * One round: a row per cell with every metric's operations and nanoseconds. {@link #WARM_UP_TURNS_ROUND} is the
   * warm-up's turns ({@link #warmUp}); every other round, round 0 (a warm-up too) included, is a measured round's
   * turns.
   */
  private List<Measurement> round(Map<String, ChildJvm> cells, int round) throws IOException {
    boolean warmUpTurns = round == WARM_UP_TURNS_ROUND;
    List<Pairing> order = rotated(settings.pairings(), Math.floorMod(round, settings.pairings().size()));
    List<Measurement> rows = new ArrayList<>();
    for (BenchMode mode : settings.modes()) {
      Map<Pairing, Map<String, Number>> values = new LinkedHashMap<>();
      for (PeerMetric metric : settings.metrics()) {
        int turns = warmUpTurns ? 1 : settings.turns();
        for (int turn = 0; turn < turns; turn++) {
          for (Pairing pairing : order) {
            ChildJvm cell = cells.get(name(mode, pairing));
            LineRecord done = warmUpTurns ? warmUp(cell, name(mode, pairing), metric)
                : cell.call(metric.command(settings.seconds() / turns, turn > 0));
            Map<String, Number> v = values.computeIfAbsent(pairing, p -> new LinkedHashMap<>());
            add(v, metric.opsColumn(), done.getLong("ops"));
            add(v, metric.nanosColumn(), done.getLong("nanos"));
            add(v, metric.cpuColumn(), done.getLong("cpu"));
            add(v, metric.jitColumn(), done.getLong("jit"));
          }
        }
      }
      for (Pairing pairing : settings.pairings()) {
        Measurement row = new Measurement(mode.name(), pairing.label(), round, values.get(pairing));
        rows.add(row);
        progress.step(name(mode, pairing) + " " + (warmUpTurns ? "warm-up turns" : WarmUp.label(round)) + ": "
            + describe(row));
      }
    }
    return rows;
  }

  /** Adds a turn's count to the round's. */
  private static void add(Map<String, Number> values, String column, long turn) {
    values.merge(column, turn, (sum, more) -> sum.longValue() + more.longValue());
  }

  /**
   * A cell's warm-up turns of one metric, the last one's answer: turns repeat while the cell's JIT compiled for more
   * than {@link #JIT_QUIET} of the turn, up to the settings' limit. Code run once per operation, such as a
   * connection's set-up, reaches the JIT's thresholds only after thousands of operations, and until then its
   * compilation shows in the rates and CPU times measured, the more the more code a library runs per connection.
   */
  private LineRecord warmUp(ChildJvm cell, String name, PeerMetric metric) throws IOException {
    int allowed = warmUpTurnsAllowed(settings, progress.seconds(), warmUpsLeft--);
    LineRecord done = cell.call(metric.command(settings.warmUp()));
    int turns = 1;
    while (compiling(done) && turns < allowed) {
      done = cell.call(metric.command(settings.warmUp()));
      turns++;
    }
    if (turns > 1) {
      progress.step(String.format(Locale.ROOT, "%s warm-up: %s took %d turns (the JIT compiled for %d ms in the"
          + " last)", name, metric.name(), turns, done.getLong("jit")));
    }
    if (compiling(done) && turns < settings.warmUpTurns()) {
      cutShort.add(Map.entry(name, metric));
    }
    return done;
  }

  /**
   * A second pass over the warm-ups their share cut short, with what the first pass left of the budget: the metrics
   * that compiled quickly leave time that the first pass's equal shares handed out only to the warm-ups after them.
   */
  private void resumeWarmUps(Map<String, ChildJvm> cells) throws IOException {
    List<Map.Entry<String, PeerMetric>> resumed = cutShort;
    cutShort = new ArrayList<>();
    warmUpsLeft = resumed.size();
    for (Map.Entry<String, PeerMetric> c : resumed) {
      warmUp(cells.get(c.getKey()), c.getKey(), c.getValue());
    }
  }

  /** Whether a warm-up turn's JIT compiled for more than {@link #JIT_QUIET} of it. */
  boolean compiling(LineRecord turn) {
    return turn.getLong("jit") > JIT_QUIET * settings.warmUp() * 1000;
  }

  static <T> List<T> rotated(List<T> list, int by) {
    List<T> out = new ArrayList<>(list.subList(by % list.size(), list.size()));
    out.addAll(list.subList(0, by % list.size()));
    return out;
  }

  private String describe(Measurement row) {
    return settings.metrics().stream().map(m -> String.format(Locale.ROOT, "%s %.0f %s", m.name(),
        m.rate((long) row.value(m.opsColumn()), (long) row.value(m.nanosColumn())), m.unit()))
        .collect(Collectors.joining(", "));
  }
}
