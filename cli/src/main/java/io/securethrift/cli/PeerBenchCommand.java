package io.securethrift.cli;

import io.securethrift.bench.peer.PeerBenchmark;
import io.securethrift.bench.peer.PeerReport;
import io.securethrift.bench.peer.PeerSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * peer-bench: securethrift's transports side by side with libthrift's own as Accumulo wires them, every mode, with
 * crossed pairings, paired rounds and 95 % intervals ({@link PeerBenchmark}). Certificates and the KDC are made for
 * the run; nothing is needed beforehand and everything but the result files is deleted afterwards.
 */
@Command(name = "peer-bench", mixinStandardHelpOptions = true,
    subcommands = {PeerBenchCommand.Compare.class, PeerBenchCommand.Docs.class},
    description = {"securethrift against libthrift's own transports (TFramedTransport/TSocket, TSSLTransportFactory,",
        "TSaslClientTransport/TSaslServerTransport with GSSAPI) on the same TThreadPoolServer echo service: MB/s each",
        "way, round trips/s and new connections/s per mode, ours/libthrift per round with 95 %% intervals, plus the",
        "crossed pairings (our client + libthrift's server, libthrift's client + our server); rounds are added until",
        "every interval is within --precision points or --max-time is up. 'peer-bench compare A.json B.json'",
        "compares two runs; 'peer-bench docs FILE.md A.json B.json' writes runs' tables into a document."})
final class PeerBenchCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Option(names = "--modes", split = ",", description = "modes: plain, tls-jsse, tls-conscrypt, auth, auth-int,"
      + " auth-conf (default: all)")
  private List<String> modes = PeerSettings.MODES;

  @Option(names = "--pairings", split = ",", description = "pairings besides libthrift (always run, the baseline):"
      + " securethrift, our-client, our-server (default: all)")
  private List<String> pairings = PeerSettings.PAIRINGS;

  @Option(names = "--bulk-sizes", split = ",", description = "payload bytes of the MB/s metrics (default:"
      + " ${DEFAULT-VALUE})")
  private List<Integer> bulkSizes = List.of(1 << 20, 64 << 10);

  @Option(names = "--small-sizes", split = ",", description = "payload bytes of the round-trips/s metrics (default:"
      + " ${DEFAULT-VALUE})")
  private List<Integer> smallSizes = List.of(1024);

  @Option(names = "--no-connections", description = "leave out new connections/s")
  private boolean noConnections;

  @Option(names = "--seconds", description = "how long each cell runs each metric per round (default:"
      + " ${DEFAULT-VALUE})")
  private double seconds = 0.3;

  @Option(names = "--turns", description = "how many turns a round's --seconds are cut into: the cells of a mode take"
      + " turns at each metric, so that what the machine does meanwhile falls on all of them alike"
      + " (default: ${DEFAULT-VALUE})")
  private int turns = 6;

  @Option(names = "--warm-up", description = "how long each cell runs each metric in a turn of the warm-up round,"
      + " which is not analysed (default: ${DEFAULT-VALUE})")
  private double warmUp = 1.0;

  @Option(names = "--warm-up-turns", description = "the most warm-up turns of a cell and metric: they repeat while"
      + " the cell's JIT compiles for more than 5 %% of a turn, so both libraries' paths are compiled before"
      + " anything is measured (default: ${DEFAULT-VALUE})")
  private int warmUpTurns = 30;


  @Mixin
  private StoppingOptions stopping = new StoppingOptions(PeerSettings.DEFAULT_STOPPING);

  @Option(names = "--output", description = "directory for peer-results.json/.csv/.html and peer-iterations.csv"
      + " (default: ${DEFAULT-VALUE})")
  private Path output = Path.of("peer-results");

  @Override
  public Integer call() throws Exception {
    PeerSettings settings = settings();
    PrintWriter out = spec.commandLine().getOut();
    PeerReport report = new PeerBenchmark(settings, System.err).run();
    out.print(PeerReport.markdown(report.results()));
    out.println("wrote " + settings.output().resolve("peer-results.json") + " (and .csv, .html,"
        + " peer-iterations.csv)");
    out.flush();
    return 0;
  }

  PeerSettings settings() {
    return PeerSettings.of(modes, pairings, bulkSizes, smallSizes, !noConnections, seconds, turns, warmUp,
        warmUpTurns, stopping.rule(), output);
  }

  /** {@code peer-bench compare A.json B.json}: two runs' overheads side by side, real differences marked. */
  @Command(name = "compare", mixinStandardHelpOptions = true,
      description = {"Compares two peer-results.json files: every mode's, pairing's and metric's cost overhead",
          "against libthrift in A and in B with their 95 %% intervals, and B - A in points with its own interval;",
          "REAL marks a difference whose interval leaves out zero, the others are within the runs' noise."})
  static final class Compare extends CompareCommand {
    Compare() {
      super(PeerReport.TOOL);
    }
  }

  /** {@code peer-bench docs FILE.md RESULTS.json...}: the runs' agreement and the last run's tables. */
  @Command(name = "docs", mixinStandardHelpOptions = true,
      description = {"Writes runs' tables (from their peer-results.json files, oldest first) into FILE.md between",
          "the lines '<!-- peer-bench results: ... -->' and '<!-- end of peer-bench results -->': with several",
          "runs, whether they agree (every metric's cost within +/-5 points), then the last run's tables."})
  static final class Docs extends DocsCommand {
    Docs() {
      super(PeerReport.DOCS);
    }
  }
}
