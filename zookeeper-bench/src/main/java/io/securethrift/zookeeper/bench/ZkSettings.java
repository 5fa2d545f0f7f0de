package io.securethrift.zookeeper.bench;

import io.securethrift.benchstats.StoppingRule;
import io.securethrift.core.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a zk-bench run does, validated on construction so a bad setting stops the run before any JVM starts.
 *
 * @param shapes where TLS goes, each shape with its own ensembles and its own baseline
 * @param modes the modes to run where a shape has them ({@code none} always, as the baseline)
 * @param znodes znodes per asynchronous phase
 * @param syncZnodes znodes of the synchronous phase (one outstanding request)
 * @param sessions fresh sessions opened and timed per iteration
 * @param rounds a fixed number of rounds, or 0 to add rounds until {@code precision} or {@code maxTime}
 * @param precision the interval half-width, in points, that ends an adaptive run
 * @param maxTime the whole run's budget, start-up and warm-up included
 * @param minRounds rounds an adaptive run does at least
 * @param output where the JSON, CSV and HTML results go
 */
record ZkSettings(List<Shape> shapes, List<BenchMode> modes, int znodes, int syncZnodes, int sessions, int rounds,
    double precision, Duration maxTime, int minRounds, Path output) {

  ZkSettings {
    shapes = List.copyOf(shapes);
    modes = List.copyOf(modes);
    if (shapes.isEmpty() || shapes.stream().distinct().count() != shapes.size()) {
      throw new ConfigException("--shapes", "name each shape once, at least one: " + shapes);
    }
    if (!modes.contains(BenchMode.NONE)) {
      throw new ConfigException("--modes", "must include none, the baseline of every overhead");
    }
    for (Shape shape : shapes) {
      if (modesOf(shape, modes).size() < 2) {
        throw new ConfigException("--modes", "leaves shape " + shape.label() + " only the baseline; it runs "
            + shape.modes().stream().map(BenchMode::label).toList());
      }
    }
    atLeast("--znodes", znodes, 1);
    atLeast("--sync-znodes", syncZnodes, 1);
    atLeast("--sessions", sessions, 0);
    atLeast("--rounds", rounds, 0);
    atLeast("--min-rounds", minRounds, 3);
    if (!(precision > 0) || Double.isInfinite(precision)) {
      throw new ConfigException("--precision", precision + " is not a positive number of points");
    }
    if (maxTime.isNegative() || maxTime.isZero()) {
      throw new ConfigException("--max-time", "must be greater than zero");
    }
    Objects.requireNonNull(output, "output");
  }

  private static void atLeast(String option, long value, long min) {
    if (value < min) {
      throw new ConfigException(option, value + " is less than " + min);
    }
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

  StoppingRule stoppingRule() {
    return rounds > 0 ? StoppingRule.fixed(rounds) : new StoppingRule(precision, maxTime, minRounds, 0);
  }

  String describe() {
    String stop = rounds > 0 ? rounds + " rounds" : String.format(Locale.ROOT, "rounds until every wall and CPU"
        + " interval is within +/-%.1f points (at least %d) or %d s have passed", precision, minRounds,
        maxTime.toSeconds());
    return String.format(Locale.ROOT, "zk-bench: %,d znodes of 100 bytes per asynchronous phase (%,d operations),"
        + " %,d synchronous requests, %d fresh sessions per iteration; one warm-up, then %s; Netty client and"
        + " servers, each in its own JVM, mutual TLS", znodes, ZkRow.OPS_PER_ZNODE * znodes,
        Workload.SYNC_OPS.size() * syncZnodes, sessions, stop);
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("shapes", String.join(",", shapes.stream().map(Shape::label).toList()));
    m.put("modes", String.join(",", modes.stream().map(BenchMode::label).toList()));
    m.put("znodes", znodes);
    m.put("syncZnodes", syncZnodes);
    m.put("sessions", sessions);
    m.put("rounds", rounds);
    m.put("precision", precision);
    m.put("maxTimeSeconds", maxTime.toMillis() / 1000.0);
    m.put("minRounds", minRounds);
    return m;
  }
}
