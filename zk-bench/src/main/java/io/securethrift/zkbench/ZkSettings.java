package io.securethrift.zkbench;

import io.securethrift.harness.BenchMode;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.WarmUp;
import io.securethrift.core.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a zk-bench run does, validated on construction so a bad setting stops the run before any JVM starts;
 * {@link #of} makes it from the values a user gave.
 *
 * @param shapes where TLS goes, each shape with its own ensembles and its own baseline
 * @param modes the modes to run where a shape has them ({@code none} always, as the baseline)
 * @param znodes znodes per asynchronous phase
 * @param syncZnodes znodes of the synchronous phase (one outstanding request)
 * @param sessions fresh sessions opened and timed per iteration
 * @param forks ensembles (with their client JVMs) per mode of a shape whose baseline is another ensemble, which take
 *     the measured rounds in turn ({@link io.securethrift.harness.Forks}; see {@link #forks(Shape)})
 * @param stoppingRule when the run stops adding rounds: after a fixed number, or once every wall and CPU interval is
 *     within its precision target or the time is up (the budget counts start-up and warm-up)
 * @param warmupRounds rounds run first like measured ones and never analysed (see {@link WarmUp}); 0 for none
 * @param output where the JSON, CSV and HTML results go
 */
public record ZkSettings(List<Shape> shapes, List<BenchMode> modes, int znodes, int syncZnodes, int sessions, int forks,
    StoppingRule stoppingRule, int warmupRounds, Path output) {
  /**
   * 2,500 znodes, 27,500 operations per iteration. At 1,000, an asynchronous phase lasted 15 to 30 ms on this
   * project's machine, and with CPU read to the nanosecond its per-round ratios still moved by 9 to 13 % (one standard
   * deviation), too much for +/-3 points in the rounds a run affords.
   */
  public static final int DEFAULT_ZNODES = 2_500;
  /**
   * Adaptive to +/-3 points within 420 s of the command's start: rounds of the default iterations take 8 to 9 s,
   * after about 45 s of start-up and 95 s of warm-up, so a run has about 30 measured rounds.
   */
  public static final StoppingRule DEFAULT_STOPPING = new StoppingRule(3.0, Duration.ofSeconds(420), 5, 0);
  /**
   * Two warm-up rounds, on every fork. In three idle default runs with one warm-up round (and one ensemble per mode),
   * each JVM's second iteration, the first measured, was still far from warm: that round took 32 s where later ones
   * took 8, and client-port TLS 1.2 on JSSE came out at 1.75 to 2.0 times its baseline's CPU against 1.33 to 1.37 in
   * the later rounds. With two forks taking the rounds in turn, one warm-up round would leave each fork's second
   * iteration among the measured ones.
   */
  public static final int DEFAULT_WARMUP_ROUNDS = 2;
  /**
   * Two ensembles per mode where the baseline is another ensemble. With one, three idle default runs agreed on
   * client-port TLS but not on quorum TLS: its overheads moved by 6 to 10 points between the runs, one run lower on
   * every quorum row, while each run's interval was about +/-4 points wide. That is a lasting difference between two
   * ensembles, which the rounds of one pair of them cannot show.
   */
  public static final int DEFAULT_FORKS = 2;
  /** The shapes a run measures unless told otherwise: client-port TLS and the published quorum-TLS shape. */
  public static final List<String> DEFAULT_SHAPES = List.of(Shape.CLIENT_TLS.label(), Shape.QUORUM_TLS.label());
  /** Every mode zk-bench runs, where a shape has it. */
  public static final List<String> MODES = List.copyOf(ZkModes.ALL.names());
  /** The most forks a run takes: every fork of every mode is a set of JVMs alive for the whole run. */
  static final int MAX_FORKS = 4;

  public ZkSettings {
    shapes = List.copyOf(shapes);
    modes = List.copyOf(modes);
    if (shapes.isEmpty() || shapes.stream().distinct().count() != shapes.size()) {
      throw new ConfigException("--shapes", "name each shape once, at least one: "
          + shapes.stream().map(Shape::label).toList());
    }
    if (!modes.contains(ZkModes.NONE)) {
      throw new ConfigException("--modes", "must include none, the baseline of every overhead");
    }
    for (Shape shape : shapes) {
      if (modesOf(shape, modes).size() < 2) {
        throw new ConfigException("--modes", "leaves shape " + shape.label() + " only the baseline; it runs "
            + shape.modes().stream().map(BenchMode::name).toList());
      }
    }
    atLeast("--znodes", znodes, 1);
    atLeast("--sync-znodes", syncZnodes, 1);
    atLeast("--sessions", sessions, 0);
    if (forks < 1 || forks > MAX_FORKS) {
      throw new ConfigException("--forks", forks + " is outside 1 to " + MAX_FORKS);
    }
    atLeast("--warmup-rounds", warmupRounds, 0);
    Objects.requireNonNull(stoppingRule, "stoppingRule");
    Objects.requireNonNull(output, "output");
  }

  /**
   * The settings of shape and mode names as a user gave them.
   *
   * @throws ConfigException naming the option of a value that cannot be used
   */
  public static ZkSettings of(List<String> shapes, List<String> modes, int znodes, int syncZnodes, int sessions,
      int forks, StoppingRule stoppingRule, int warmupRounds, Path output) {
    List<Shape> s;
    try {
      s = shapes.stream().map(Shape::of).collect(Collectors.toList());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("--shapes", e.getMessage());
    }
    return new ZkSettings(s, ZkModes.ALL.parse("--modes", modes), znodes, syncZnodes, sessions, forks, stoppingRule,
        warmupRounds, output);
  }

  private static void atLeast(String option, long value, long min) {
    if (value < min) {
      throw new ConfigException(option, value + " is less than " + min);
    }
  }

  /**
   * The ensembles each of a shape's modes runs: {@link #forks()} where TLS is between the servers, so that a mode
   * and its baseline cannot share processes; one in {@code client-tls}, whose modes take turns with their baseline in
   * their own processes. Two ensembles per mode there as well started 48 JVMs, which with 512 MB heaps used 19.8 of
   * this project's machine's 24 GB four minutes in and still rising, and the warm-up took 238 s of the 420.
   */
  int forks(Shape shape) {
    return shape.quorumTls() ? forks : 1;
  }

  /** The modes a shape runs in this run, baseline first. */
  List<BenchMode> modes(Shape shape) {
    return modesOf(shape, modes);
  }

  // Static, for the compact constructor, which runs before the fields are assigned.
  private static List<BenchMode> modesOf(Shape shape, List<BenchMode> modes) {
    List<BenchMode> run = new ArrayList<>(shape.modes());
    run.retainAll(modes);
    return run;
  }

  String describe() {
    return String.format(Locale.ROOT, "zk-bench: %,d znodes of 100 bytes per asynchronous phase (%,d operations),"
        + " %,d synchronous requests, %d fresh sessions per iteration; %s; %s, then %s; Netty client and"
        + " servers, each in its own JVM, mutual TLS", znodes, ZkRow.OPS_PER_ZNODE * znodes,
        Workload.SYNC_OPS.size() * syncZnodes, sessions, forks == 1 ? "one ensemble per mode" : forks
        + " ensembles per quorum-TLS mode taking the rounds in turn", WarmUp.describe(warmupRounds),
        stoppingRule.describe("wall and CPU interval"));
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("shapes", String.join(",", shapes.stream().map(Shape::label).toList()));
    m.put("modes", String.join(",", modes.stream().map(BenchMode::name).toList()));
    m.put("znodes", znodes);
    m.put("syncZnodes", syncZnodes);
    m.put("sessions", sessions);
    m.put("forks", forks);
    m.putAll(stoppingRule.settings());
    m.put("warmupRounds", warmupRounds);
    return m;
  }
}
