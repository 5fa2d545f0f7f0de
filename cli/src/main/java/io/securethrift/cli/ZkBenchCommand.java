package io.securethrift.cli;

import io.securethrift.core.ConfigException;
import io.securethrift.zkbench.ZkBenchmark;
import io.securethrift.zkbench.ZkReport;
import io.securethrift.zkbench.ZkSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * zk-bench: ZooKeeper's zk-latencies workload (create, set, get, delete of permanent and ephemeral znodes, and
 * watches, asynchronously; then one request at a time) without TLS and with TLS, per shape (where TLS goes) and mode
 * (engine and protocol), with the CPU of every process, paired rounds and 95 % intervals ({@link ZkBenchmark}).
 * Certificates come from a throw-away CA; nothing is needed beforehand and everything but the result files is deleted
 * afterwards.
 *
 * <p>bin/securethrift runs this class on zk-bench's class path ({@link #main}), so it and what it uses of this
 * package (the option mixins, {@code compare} and {@code docs}) need nothing of the other commands' modules.
 */
@Command(name = "zk-bench", mixinStandardHelpOptions = true,
    subcommands = {ZkBenchCommand.Compare.class, ZkBenchCommand.Docs.class},
    description = {"ZooKeeper's cost of TLS (zk-latencies workload): wall time, synchronous latency and CPU per",
        "operation of every mode against none, per shape, with 95 %% intervals; after --warmup-rounds, rounds are",
        "added until every wall and CPU interval is within --precision points or --max-time is up. 'zk-bench compare",
        "A.json B.json' compares two runs; 'zk-bench docs RESULTS.json FILE.md' writes a run's tables into a",
        "document."})
public final class ZkBenchCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Option(names = "--shapes", split = ",", description = "where TLS goes: client-tls (1 server, TLS on the client"
      + " port, no fsync), quorum-tls (3 servers, TLS between them only, plaintext clients, fsync on: the published"
      + " shape), both (3 servers, TLS on both, fsync on) (default: ${DEFAULT-VALUE})")
  private List<String> shapes = ZkSettings.DEFAULT_SHAPES;

  @Option(names = "--modes", split = ",", description = "modes to run where a shape has them: none (always, the"
      + " baseline), tls12-jsse, tls13-jsse, tls12-conscrypt, tls12-openssl, tls13-openssl (Netty's netty-tcnative,"
      + " client port only) (default: ${DEFAULT-VALUE})")
  private List<String> modes = ZkSettings.MODES;

  @Option(names = "--znodes", description = "znodes per asynchronous phase; an iteration is 11 times as many"
      + " operations (default: ${DEFAULT-VALUE})")
  private int znodes = ZkSettings.DEFAULT_ZNODES;

  @Option(names = "--sync-znodes", description = "znodes of the synchronous phase, which creates, sets, gets and"
      + " deletes each with one request outstanding (default: ${DEFAULT-VALUE})")
  private int syncZnodes = 100;

  @Option(names = "--sessions", description = "fresh sessions opened and timed per iteration, outside the CPU"
      + " measurement (default: ${DEFAULT-VALUE})")
  private int sessions = 3;

  @Option(names = "--forks", description = "ensembles (each with its client JVM) per mode of quorum-tls and both,"
      + " whose baseline is another ensemble, taking the measured rounds in turn two at a time, so that one"
      + " ensemble's lasting differences count as noise; every warm-up round runs on all of them; client-tls, whose"
      + " modes take turns with their baseline in their own processes, runs one (default: ${DEFAULT-VALUE})")
  private int forks = ZkSettings.DEFAULT_FORKS;

  @Mixin
  private StoppingOptions stopping = new StoppingOptions(ZkSettings.DEFAULT_STOPPING);

  @Mixin
  private WarmUpOption warmUp = new WarmUpOption(ZkSettings.DEFAULT_WARMUP_ROUNDS);

  @Option(names = "--output", description = "directory for zk-results.json/.csv/.html and zk-iterations.csv"
      + " (default: ${DEFAULT-VALUE})")
  private Path output = Path.of("zk-results");

  /**
   * zk-bench on its own class path: {@code bin/securethrift zk-bench} starts it here, on ZooKeeper's own Netty and
   * the netty-tcnative built for it (engine openssl), which the other commands' newer Netty cannot share a JVM with.
   */
  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new ZkBenchCommand());
    // As the securethrift command does: bad input is one line naming the setting, and exit code 2.
    cli.setExecutionExceptionHandler((e, line, parsed) -> {
      if (e instanceof ConfigException) {
        line.getErr().println("securethrift zk-bench: " + e.getMessage());
        return 2;
      }
      throw e;
    });
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    ZkSettings settings = settings();
    PrintWriter out = spec.commandLine().getOut();
    ZkReport report = new ZkBenchmark(settings, System.err).run();
    out.print(ZkReport.markdown(report.results()));
    out.println("wrote " + settings.output().resolve("zk-results.json") + " (and .csv, .html, zk-iterations.csv)");
    out.flush();
    return 0;
  }

  ZkSettings settings() {
    return ZkSettings.of(shapes, modes, znodes, syncZnodes, sessions, forks, stopping.rule(), warmUp.rounds(), output);
  }

  /** {@code zk-bench compare A.json B.json}: two runs' overheads side by side, real differences marked. */
  @Command(name = "compare", mixinStandardHelpOptions = true,
      description = {"Compares two zk-results.json files: every shape's and mode's overheads in A and in B with",
          "their 95 %% intervals, and B - A in points with its own interval; REAL marks a difference whose interval",
          "leaves out zero, the others are within the runs' noise."})
  static final class Compare extends CompareCommand {
    Compare() {
      super(ZkReport.TOOL);
    }
  }

  /**
   * {@code zk-bench docs FILE.md RESULTS.json...}: the runs' agreement and the last run's tables
   * ({@link ZkReport#DOCS}).
   */
  @Command(name = "docs", mixinStandardHelpOptions = true,
      description = {"Writes runs' tables (from their zk-results.json files, oldest first) into FILE.md between the",
          "lines '<!-- zk-bench results: ... -->' and '<!-- end of zk-bench results -->': with several runs,",
          "whether they agree (CPU per operation within +/-3 points, wall within +/-5), then the last run's tables."})
  static final class Docs extends DocsCommand {
    Docs() {
      super(ZkReport.DOCS);
    }
  }
}
