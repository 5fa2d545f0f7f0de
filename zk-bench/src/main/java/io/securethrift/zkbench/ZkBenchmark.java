package io.securethrift.zkbench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.Forks;
import io.securethrift.harness.MeasuredRounds;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.ProgressLog;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.WarmUp;
import io.securethrift.harness.WorkDirectory;
import io.securethrift.harness.Workload;
import io.securethrift.zookeeper.LocalEnsemble;
import io.securethrift.zookeeper.ZooKeeperClientSecurity;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Runs zk-bench: for every shape and mode {@link ZkSettings#forks(Shape)} ensembles (each server a child JVM), each
 * with its client JVM, warm-up rounds on all of them ({@link WarmUp}, two by default), then rounds of one iteration per
 * shape and mode, on one of its forks ({@link Forks}), in the same order every round, so drift of the machine hits
 * every mode alike. Around each iteration it samples the CPU time of the client and of every server
 * from the operating system, and their garbage collection; each mode's overhead is its cost divided by its shape's
 * {@code none} in the same round (wall time per asynchronous operation, latency per synchronous request, client plus
 * server CPU per operation), and rounds are added until the wall and CPU intervals are as narrow as asked or the time
 * is up ({@link StoppingRule}).
 *
 * <p>In the {@code client-tls} shape, whose servers talk plaintext to each other, a TLS mode's servers also open the
 * plain client port, and its client JVM runs the same workload over a plaintext session taking turns with each TLS
 * iteration, a phase at a time ({@link TakingTurns}): the mode is divided by that baseline in its own processes
 * ({@link PairedAnalysis#ownBaseline}), so neither the time between iterations nor lasting differences between
 * separate JVMs enter its overhead.
 */
public final class ZkBenchmark {
  static final String WALL = "wall";
  static final String SYNC = "sync";
  static final String CPU = "cpu";
  static final String BASELINE = ZkModes.NONE.name();
  /** The bootstrap's seed: fixed, so the same raw data always gives the same intervals. */
  private static final long SEED = 1_700_000_017L;

  private final ZkSettings settings;
  private final ProgressLog progress;

  public ZkBenchmark(ZkSettings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = new ProgressLog(progress);
  }

  /** One fork of a shape and mode: its ensemble, its client JVM and the client's GC totals at the last answer. */
  private static final class Target {
    final Shape shape;
    final BenchMode mode;
    final int fork;
    final LocalEnsemble ensemble;
    final ChildJvm client;
    final Path gcLogs;
    /** Whether the client also runs the workload over a plaintext session to the same servers. */
    final boolean ownBaseline;
    long[] clientGc = {0, 0};

    Target(Shape shape, BenchMode mode, int fork, LocalEnsemble ensemble, ChildJvm client, Path gcLogs,
        boolean ownBaseline) {
      this.shape = shape;
      this.mode = mode;
      this.fork = fork;
      this.ensemble = ensemble;
      this.client = client;
      this.gcLogs = gcLogs;
      this.ownBaseline = ownBaseline;
    }

    String name() {
      return shape.label() + " " + mode.name();
    }
  }

  /** Runs everything, writes the result files and returns the report. */
  public ZkReport run() throws IOException {
    RunInfo.Start start = RunInfo.start(RunInfo.launcherCommit());
    WorkDirectory work = WorkDirectory.create("zk-bench-");
    Path dir = work.path();
    List<Target> targets = new ArrayList<>();
    try (BenchSecurity security = new BenchSecurity(dir)) {
      // Every ensemble starts before any is waited for: their JVMs start and their elections run side by side.
      List<Starting> starting = new ArrayList<>();
      try {
        for (Shape shape : settings.shapes()) {
          for (BenchMode mode : settings.modes(shape)) {
            for (int fork = 0; fork < settings.forks(shape); fork++) {
              starting.add(launch(shape, mode, fork, dir, security));
            }
          }
        }
        for (int i = 0; i < starting.size(); i++) {
          Starting s = starting.get(i);
          try {
            targets.add(client(s, dir, security));
          } catch (IllegalStateException e) {
            // LocalEnsemble picks free ports and releases them for the servers to bind; any process on the machine
            // that binds ports it picked at random (MiniAccumuloCluster does) can take one in between. Such an
            // ensemble is started once more, on new ports.
            if (!String.valueOf(e.getMessage()).contains("Address already in use")) {
              throw e;
            }
            s.ensemble().close();
            Starting again = launch(s.shape(), s.mode(), s.fork(), dir, security);
            starting.set(i, again);
            targets.add(client(again, dir, security));
          }
        }
      } finally {
        starting.stream().filter(s -> targets.stream().noneMatch(t -> t.ensemble == s.ensemble))
            .forEach(s -> s.ensemble.close());
      }
      ZkReport report = measure(targets, start);
      report.write(settings.output());
      return report;
    } finally {
      targets.forEach(t -> t.client.close());
      targets.forEach(t -> t.ensemble.close());
      work.close();
    }
  }

  /** An ensemble launched and not yet waited for. */
  private record Starting(Shape shape, BenchMode mode, int fork, LocalEnsemble ensemble, Path gcLogs) {
    String name() {
      return name(shape, mode, fork);
    }

    static String name(Shape shape, BenchMode mode, int fork) {
      return shape.label() + "-" + mode.name() + "-fork-" + (fork + 1);
    }

    boolean clientTls() {
      return mode.tls() && shape.clientTls();
    }

    /** TLS on the client port only: the same servers can serve the baseline on their plain port. */
    boolean ownBaseline() {
      return clientTls() && !shape.quorumTls();
    }
  }

  /**
   * Every JVM's heap at its maximum from the start, as ingest-bench's servers: a heap that grows in one collection
   * and is given back in another puts the kernel's work of handing the memory over into whichever iteration it meets.
   * 256 MB, for 36 JVMs in a default run: with 512 MB each took about 490 MB of memory.
   */
  private static final List<String> FIXED_HEAP = List.of("-Xms256m", "-Xmx256m");

  private static Starting launch(Shape shape, BenchMode mode, int fork, Path dir, BenchSecurity security)
      throws IOException {
    Path gcLogs = Files.createDirectories(dir.resolve(Starting.name(shape, mode, fork) + "-gc"));
    boolean clientTls = mode.tls() && shape.clientTls();
    boolean plainPort = !clientTls || !shape.quorumTls();
    LocalEnsemble zk = LocalEnsemble.builder().size(shape.servers())
        .security(security.config(mode, true).build()).clientPort(plainPort)
        .secureClientPort(clientTls).quorumTls(mode.tls() && shape.quorumTls())
        .tickTime(2000).jvmOptions(Stream.concat(FIXED_HEAP.stream(), Stream.of(
            "-Dzookeeper.forceSync=" + (shape.fsync() ? "yes" : "no"), GcLog.option(gcLogs),
            ProcessSample.KEEP_COMPILER_THREADS)).toList()).start();
    return new Starting(shape, mode, fork, zk, gcLogs);
  }

  /** Waits for the ensemble to serve and starts its client. */
  private Target client(Starting s, Path dir, BenchSecurity security) throws IOException {
    SecurityConfig client = s.clientTls() ? security.config(s.mode(), false).build()
        : SecurityConfig.builder().build();
    // The probe runs in this JVM, which keeps JSSE: same stores, engine jsse.
    SecurityConfig probe = s.clientTls() && !s.mode().engine().orElseThrow().equals(TlsEngine.JSSE)
        ? client.toBuilder().tlsEngine(TlsEngine.JSSE).build() : client;
    ZKClientConfig probeConfig = ZooKeeperClientSecurity.clientConfig(probe);
    s.ensemble().awaitServing(IntStream.rangeClosed(1, s.shape().servers()).boxed().toList(), probeConfig,
        Duration.ofSeconds(180));
    // A ZooKeeper client keeps its session on one server picked at random, and on the leader a write skips the hop a
    // follower forwards it on: each ensemble's client talks to a follower, so that ensembles compare like for like.
    String connect = s.shape().servers() == 1 ? s.ensemble().connectString(s.clientTls())
        : s.ensemble().connectString(s.clientTls(), s.ensemble().follower(probeConfig));
    Path props = write(client, dir.resolve(s.name() + "-client.properties"));
    List<String> args = new ArrayList<>(List.of(props.toString(), connect,
        Integer.toString(settings.znodes()), Integer.toString(settings.syncZnodes()),
        Integer.toString(settings.sessions())));
    if (s.ownBaseline()) {
      // The plain port for the baseline, and the servers to sample at each turn (TakingTurns).
      args.add(s.ensemble().connectString(false));
      args.add(s.ensemble().pids().stream().map(String::valueOf).collect(Collectors.joining(",")));
      args.add(s.gcLogs().toAbsolutePath().toString());
    }
    ChildJvm jvm = ChildJvm.builder(BenchClientMain.class).name(s.name() + " client")
        .jvmOptions(FIXED_HEAP).jvmOptions(List.of(ProcessSample.KEEP_COMPILER_THREADS))
        .args(args).log(dir.resolve(s.name() + "-client.log")).talk().start();
    progress.step(s.name() + ": " + s.shape().servers() + " server(s) serving, client started");
    return new Target(s.shape(), s.mode(), s.fork(), s.ensemble(), jvm, s.gcLogs(), s.ownBaseline());
  }

  private ZkReport measure(List<Target> targets, RunInfo.Start start) throws IOException {
    StoppingRule rule = settings.stoppingRule();
    MeasuredRounds.Outcome outcome = MeasuredRounds.run(new Ensembles(targets), rule, start::elapsed, progress);
    List<Overhead> all = new ArrayList<>(outcome.overheads());
    all.addAll(PairedAnalysis.overheads(outcome.rows(), BASELINE, SYNC, ZkRow::syncPerOp, SEED));
    return new ZkReport(settings.describe(), settings.toMap(), shapeLines(), start.finish(), rule, outcome.decision(),
        all, outcome.rows());
  }

  /** The targets as a workload: each ensemble's client and its baseline taking turns; wall and CPU decide. */
  private final class Ensembles implements Workload {
    private final List<Target> targets;

    Ensembles(List<Target> targets) {
      this.targets = targets;
    }

    @Override
    public List<Measurement> warmUp(StoppingRule rule, Supplier<Duration> elapsed, ProgressLog log)
        throws IOException {
      return WarmUp.run(settings.warmupRounds(), this::round, rule, elapsed, log::step);
    }

    @Override
    public List<Measurement> round(int round) throws IOException {
      return ZkBenchmark.this.round(targets, round);
    }

    @Override
    public List<Overhead> deciding(List<Measurement> rows) {
      List<Overhead> stopping = new ArrayList<>(PairedAnalysis.overheads(rows, BASELINE, WALL, ZkRow::wallPerOp,
          SEED));
      stopping.addAll(PairedAnalysis.overheads(rows, BASELINE, CPU, ZkRow::cpuPerOp, SEED));
      return stopping;
    }
  }

  private List<String> shapeLines() {
    return settings.shapes().stream().map(Shape::describe).collect(Collectors.toList());
  }

  /**
   * One round: every target's iterations in the same order, numbered {@code round}; a warm-up round on every fork, a
   * measured round on one ({@link Forks#measuring}).
   */
  private List<Measurement> round(List<Target> targets, int round) throws IOException {
    List<Measurement> rows = new ArrayList<>();
    for (Target t : targets) {
      if (round <= 0 || t.fork == Forks.measuring(round, settings.forks(t.shape))) {
        rows.addAll(iterations(t, round));
      }
    }
    return rows;
  }

  /**
   * A target's iterations of a round: its own, and where it has one its own baseline's, the two taking turns
   * ({@link TakingTurns}; the baseline first in odd rounds, and its row first then).
   */
  private List<Measurement> iterations(Target t, int round) throws IOException {
    if (!t.ownBaseline) {
      return List.of(iteration(t, round, false));
    }
    boolean baselineFirst = PairedAnalysis.ownBaselineFirst(round);
    LineRecord turns = t.client.call(LineRecord.of(BenchClientMain.TURNS).with(BenchClientMain.BASELINE_FIRST,
        baselineFirst));
    Measurement secured = turnRow(t, round, turns, TakingTurns.SECURED, sessions(t, false));
    Measurement baseline = turnRow(t, round, turns, TakingTurns.BASELINE, null);
    return baselineFirst ? List.of(baseline, secured) : List.of(secured, baseline);
  }

  private Measurement turnRow(Target t, int round, LineRecord turns, String side, LineRecord sessions) {
    boolean baseline = side.equals(TakingTurns.BASELINE);
    return row(t, round, baseline, TakingTurns.columns(turns, side), TakingTurns.client(turns, side),
        TakingTurns.servers(turns, side), sessions);
  }

  /** The fresh sessions' answer, where the settings ask for them and the row is the mode's own. */
  private LineRecord sessions(Target t, boolean baseline) throws IOException {
    return settings.sessions() == 0 || baseline ? null : t.client.call(LineRecord.of(BenchClientMain.SESSIONS));
  }

  private Measurement iteration(Target t, int round, boolean baseline) throws IOException {
    ProcessSample clientBefore = ProcessSample.of(t.client.process().pid()).withGc(t.clientGc[0], t.clientGc[1]);
    ProcessSample serversBefore = servers(t);
    LineRecord answer = t.client.call(LineRecord.of(BenchClientMain.RUN).with(BenchClientMain.BASELINE, baseline));
    ProcessSample serversUsed = servers(t).minus(serversBefore);
    t.clientGc = new long[] {answer.getLong(ZkRow.GC_COUNT), answer.getLong(ZkRow.GC_MS)};
    ProcessSample clientUsed = ProcessSample.of(t.client.process().pid()).withGc(t.clientGc[0], t.clientGc[1])
        .minus(clientBefore);
    return row(t, round, baseline, answer, clientUsed, serversUsed, sessions(t, baseline));
  }

  private Measurement row(Target t, int round, boolean baseline, LineRecord answer, ProcessSample clientUsed,
      ProcessSample serversUsed, LineRecord sessions) {
    String variant = baseline ? PairedAnalysis.ownBaseline(t.mode.name(), BASELINE) : t.mode.name();
    Measurement row = ZkRow.of(t.shape.label(), variant, t.fork, round, settings.znodes(), settings.syncZnodes(),
        answer, clientUsed, serversUsed, sessions);
    String fork = settings.forks(t.shape) > 1 ? " (fork " + (t.fork + 1) + ")" : "";
    progress.step(t.shape.label() + " " + variant + " " + WarmUp.label(round) + fork + ": " + ZkRow.describe(row));
    return row;
  }

  /** The ensemble's processes together, each with the garbage collection its GC log shows. */
  private static ProcessSample servers(Target t) {
    return GcLog.ensemble(t.ensemble.pids(), t.gcLogs);
  }


  private static Path write(SecurityConfig config, Path file) throws IOException {
    Properties p = new Properties();
    p.putAll(config.toProperties());
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.ISO_8859_1)) {
      p.store(w, "zk-bench client");
    }
    return file;
  }
}
