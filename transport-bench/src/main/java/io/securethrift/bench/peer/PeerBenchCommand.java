package io.securethrift.bench.peer;

import io.securethrift.bench.TurnOptions;
import io.securethrift.harness.DocsSection;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.StoppingOptions;
import io.securethrift.core.ConfigException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
    subcommands = {PeerBenchCommand.CompareCommand.class, PeerBenchCommand.DocsCommand.class},
    description = {"securethrift against libthrift's own transports (TFramedTransport/TSocket, TSSLTransportFactory,",
        "TSaslClientTransport/TSaslServerTransport with GSSAPI) on the same TThreadPoolServer echo service: MB/s each",
        "way, round trips/s and new connections/s per mode, ours/libthrift per round with 95 %% intervals, plus the",
        "crossed pairings (our client + libthrift's server, libthrift's client + our server); rounds are added until",
        "every interval is within --precision points or --max-time is up. 'peer-bench compare A.json B.json'",
        "compares two runs; 'peer-bench docs FILE.md A.json B.json' writes runs' tables into a document."})
public final class PeerBenchCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Option(names = "--modes", split = ",", description = "modes: plain, tls-jsse, tls-conscrypt, auth, auth-int,"
      + " auth-conf (default: all)")
  private List<String> modes = PeerModes.MODES.names();

  @Option(names = "--pairings", split = ",", description = "pairings besides libthrift (always run, the baseline):"
      + " securethrift, our-client, our-server (default: all)")
  private List<String> pairings = Arrays.stream(Pairing.values()).map(Pairing::label).collect(Collectors.toList());

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
    TurnOptions.check(seconds, turns, warmUp);
    if (warmUpTurns < 1) {
      throw new ConfigException("--warm-up-turns", warmUpTurns + " is not a number of turns (1 or more)");
    }
    for (int size : concat(bulkSizes, smallSizes)) {
      if (size < 1 || size > PeerCell.MAX_MESSAGE - 1024) {
        throw new ConfigException("--bulk-sizes/--small-sizes", size + " bytes is not between 1 and "
            + (PeerCell.MAX_MESSAGE - 1024));
      }
    }
    return new PeerSettings(PeerModes.MODES.parse("--modes", modes), parse("--pairings", pairings, Pairing::of),
        bulkSizes, smallSizes, !noConnections, seconds, turns, warmUp, warmUpTurns, stopping.rule(), output);
  }

  private static List<Integer> concat(List<Integer> a, List<Integer> b) {
    return Stream.concat(a.stream(), b.stream()).collect(Collectors.toList());
  }

  private static <T> List<T> parse(String option, List<String> labels, Function<String, T> of) {
    try {
      return labels.stream().map(of).collect(Collectors.toList());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(option, e.getMessage());
    }
  }

  /** {@code peer-bench compare A.json B.json}: two runs' overheads side by side, real differences marked. */
  @Command(name = "compare", mixinStandardHelpOptions = true,
      description = {"Compares two peer-results.json files: every mode's, pairing's and metric's cost overhead",
          "against libthrift in A and in B with their 95 %% intervals, and B - A in points with its own interval;",
          "REAL marks a difference whose interval leaves out zero, the others are within the runs' noise."})
  static final class CompareCommand extends io.securethrift.harness.CompareCommand {
    CompareCommand() {
      super(PeerReport.TOOL);
    }
  }

  /** {@code peer-bench docs FILE.md RESULTS.json...}: the runs' agreement and the last run's tables. */
  @Command(name = "docs", mixinStandardHelpOptions = true,
      description = {"Writes runs' tables (from their peer-results.json files, oldest first) into FILE.md between",
          "the lines '<!-- peer-bench results: ... -->' and '<!-- end of peer-bench results -->': with several",
          "runs, whether they agree (every metric's cost within +/-5 points), then the last run's tables."})
  static final class DocsCommand extends io.securethrift.harness.DocsCommand {
    static final DocsSection SECTION = DocsSection.of(PeerReport.TOOL);
    /** Points of cost two runs may differ by on a metric and still agree. */
    static final double TOLERANCE = 5.0;

    DocsCommand() {
      super(PeerReport.TOOL, PeerReport::markdown);
    }

    /** Metric names follow the sizes a run chose; every metric the runs have gets the same tolerance. */
    @Override
    protected Map<String, Double> tolerances(List<ResultsFile> runs) {
      Map<String, Double> tolerances = new HashMap<>();
      runs.forEach(r -> r.overheads().forEach(o -> tolerances.put(o.metric(), TOLERANCE)));
      return tolerances;
    }
  }
}
