package io.securethrift.bench.peer;

import io.securethrift.bench.TurnOptions;
import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.StoppingRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A peer-bench run's settings; {@link #of} makes them from the values a user gave.
 *
 * @param modes the modes to run
 * @param pairings the pairings to run; the {@link Pairing#BASELINE} always runs
 * @param bulkSizes payload bytes of the throughput metrics
 * @param smallSizes payload bytes of the round-trip metrics
 * @param connections whether to measure new connections per second
 * @param seconds how long each cell runs each metric in a round
 * @param turns how many turns those seconds are cut into: the pairings of a mode take turns at a metric, so that what
 *     the machine does meanwhile falls on all of them alike
 * @param warmUp how long each cell runs each metric in a turn of the warm-up round
 * @param warmUpTurns the most turns a cell runs a metric in the warm-up round: turns repeat while its JIT compiles
 * @param stoppingRule when the run stops adding rounds: after a fixed number, or once every interval is within its
 *     precision target or the time is up (the budget counts start-up and warm-up)
 * @param output the directory result files are written to
 */
public record PeerSettings(List<BenchMode> modes, List<Pairing> pairings, List<Integer> bulkSizes,
    List<Integer> smallSizes, boolean connections, double seconds, int turns, double warmUp, int warmUpTurns,
    StoppingRule stoppingRule, Path output) {
  /**
   * Adaptive to +/-3 points within 20 minutes of the command's start, after at least 4 rounds. Every cell's new
   * connections need 15 to 25 warm-up turns of a second before their TLS or Kerberos code is compiled (24 cells took
   * some 700 s in all), and until then the connection rows measure the JIT.
   */
  public static final StoppingRule DEFAULT_STOPPING = new StoppingRule(3.0, Duration.ofSeconds(1200), 4, 0);
  /** Every mode peer-bench runs, in report order. */
  public static final List<String> MODES = List.copyOf(PeerModes.MODES.names());
  /** Every pairing, the baseline first. */
  public static final List<String> PAIRINGS = Arrays.stream(Pairing.values()).map(Pairing::label).toList();

  public PeerSettings {
    modes = List.copyOf(modes);
    List<Pairing> withBaseline = new ArrayList<>(List.of(Pairing.BASELINE));
    pairings.stream().filter(p -> p != Pairing.BASELINE).distinct().forEach(withBaseline::add);
    pairings = List.copyOf(withBaseline);
    bulkSizes = List.copyOf(bulkSizes);
    smallSizes = List.copyOf(smallSizes);
  }

  /**
   * The settings of mode and pairing names and sizes as a user gave them.
   *
   * @throws ConfigException naming the option of a value that cannot be used
   */
  public static PeerSettings of(List<String> modes, List<String> pairings, List<Integer> bulkSizes,
      List<Integer> smallSizes, boolean connections, double seconds, int turns, double warmUp, int warmUpTurns,
      StoppingRule stoppingRule, Path output) {
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
        bulkSizes, smallSizes, connections, seconds, turns, warmUp, warmUpTurns, stoppingRule, output);
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

  /** Every metric, in the order a round measures them and tables show them. */
  List<PeerMetric> metrics() {
    List<PeerMetric> metrics = new ArrayList<>();
    bulkSizes.forEach(s -> metrics.add(PeerMetric.bulk(s)));
    smallSizes.forEach(s -> metrics.add(PeerMetric.roundTrips(s)));
    if (connections) {
      metrics.add(PeerMetric.CONNECTIONS);
    }
    return metrics;
  }

  boolean sasl() {
    return modes.stream().anyMatch(BenchMode::sasl);
  }

  String describe() {
    return "libthrift's own transports (TFramedTransport over TSocket, TSSLTransportFactory with its defaults,"
        + " TSaslClientTransport/TSaslServerTransport with GSSAPI on an embedded Kerby KDC) against securethrift's,"
        + " the same Thrift echo service on the same blocking TThreadPoolServer with TCompactProtocol; each cell"
        + " (mode and pairing) is one fresh JVM holding its client and server, securethrift's audit log off as"
        + " libthrift has none; every cell runs every metric for " + warmUp + " s in a warm-up round that is not"
        + " analysed (turns repeat, up to " + warmUpTurns + ", while the cell's JIT compiles for more than "
        + Math.round(PeerBenchmark.JIT_QUIET * 100) + " % of a turn"
        + (stoppingRule.fixedRounds() ? "" : ", the warm-up's turns sharing "
            + Math.round((1 - PeerBenchmark.ROUNDS_SHARE) * 100) + " % of the time budget")
        + "), then for " + seconds + " s per round, cells of"
        + " a mode and metric taking " + turns + " turns of " + seconds / turns + " s each (the connection of a"
        + " throughput metric kept from turn to turn), their order rotating every round;"
        + " ratios are securethrift's rate over libthrift's in the same round";
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("modes", modes.stream().map(BenchMode::name).collect(Collectors.toList()));
    m.put("pairings", pairings.stream().map(Pairing::label).collect(Collectors.toList()));
    m.put("bulkSizes", new ArrayList<Object>(bulkSizes));
    m.put("smallSizes", new ArrayList<Object>(smallSizes));
    m.put("connections", connections);
    m.put("secondsPerMetric", seconds);
    m.put("turnsPerMetric", turns);
    m.put("warmUpSecondsPerMetric", warmUp);
    m.put("warmUpTurns", warmUpTurns);
    m.putAll(stoppingRule.settings());
    return m;
  }
}
