package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.StoppingRule;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decisions peer-bench makes between its cells' answers and its figures, without cells: how many warm-up turns
 * the budget allows, when a turn counts as still compiling, the pairings' order from round to round, and the ratios
 * of time per operation that become the overheads.
 */
class PeerBenchmarkTest {
  private static final StoppingRule TWENTY_MINUTES = new StoppingRule(3.0, Duration.ofSeconds(1200), 4, 0);

  @Test
  void aRunOfFixedRoundsAlwaysAllowsEveryWarmUpTurn() {
    PeerSettings fixed = settings(StoppingRule.fixed(2), 1.0, 30);
    assertEquals(30, PeerBenchmark.warmUpTurnsAllowed(fixed, 0, 1000));
    assertEquals(30, PeerBenchmark.warmUpTurnsAllowed(fixed, 1e6, 1), "however long it has run");
  }

  @Test
  void anAdaptiveRunSharesWhatTheWarmUpMaySpendAmongTheWarmUpsLeft() {
    PeerSettings adaptive = settings(TWENTY_MINUTES, 1.0, 30);
    // 60 % of 1200 s is the warm-up's: 720 s less 120 spent, over 24 warm-ups of 1 s turns: 25 turns each.
    assertEquals(25, PeerBenchmark.warmUpTurnsAllowed(adaptive, 120, 24));
    assertEquals(30, PeerBenchmark.warmUpTurnsAllowed(adaptive, 120, 2), "never more than --warm-up-turns");
    assertEquals(30, PeerBenchmark.warmUpTurnsAllowed(adaptive, 0, 0), "no warm-up left counts as one");
    assertEquals(2, PeerBenchmark.warmUpTurnsAllowed(settings(TWENTY_MINUTES, 2.0, 30), 120, 120),
        "600 s over 120 warm-ups of 2 s turns: 2.5, rounded down");
  }

  @Test
  void aWarmUpGetsOneTurnOnceItsShareIsSpent() {
    PeerSettings adaptive = settings(TWENTY_MINUTES, 1.0, 30);
    assertEquals(1, PeerBenchmark.warmUpTurnsAllowed(adaptive, 700, 24), "20 s over 24: less than one turn each");
    assertEquals(1, PeerBenchmark.warmUpTurnsAllowed(adaptive, 5000, 24), "past the budget: still one turn");
    assertEquals(30, PeerBenchmark.warmUpTurnsAllowed(settings(TWENTY_MINUTES, 0, 30), 700, 24),
        "a zero-second turn is counted as a millisecond, not a division by zero");
  }

  @Test
  void aTurnIsStillCompilingWhenItsJitTookMoreThanFivePercentOfIt() {
    PeerBenchmark half = new PeerBenchmark(settings(StoppingRule.fixed(1), 0.5, 7), quiet());
    assertEquals(0.05, PeerBenchmark.JIT_QUIET);
    assertFalse(half.compiling(turn(0)));
    assertFalse(half.compiling(turn(25)), "25 ms of a 500 ms turn is 5 %: quiet");
    assertTrue(half.compiling(turn(26)));
    PeerBenchmark two = new PeerBenchmark(settings(StoppingRule.fixed(1), 2.0, 7), quiet());
    assertFalse(two.compiling(turn(100)), "the share is of the turn's length");
    assertTrue(two.compiling(turn(101)));
  }

  @Test
  void thePairingsOrderRotatesSoEachGoesFirstOnceEveryFewRounds() {
    List<Pairing> all = List.of(Pairing.values());
    assertEquals(all, PeerBenchmark.rotated(all, 0));
    assertEquals(List.of(Pairing.SECURETHRIFT, Pairing.OUR_CLIENT, Pairing.OUR_SERVER, Pairing.LIBTHRIFT),
        PeerBenchmark.rotated(all, 1));
    assertEquals(List.of(Pairing.OUR_SERVER, Pairing.LIBTHRIFT, Pairing.SECURETHRIFT, Pairing.OUR_CLIENT),
        PeerBenchmark.rotated(all, 3));
    assertEquals(PeerBenchmark.rotated(all, 1), PeerBenchmark.rotated(all, 5), "by the list's length, round again");
    List<Pairing> firsts = new ArrayList<>();
    for (int round = 0; round < all.size(); round++) {
      firsts.add(PeerBenchmark.rotated(all, round).get(0));
    }
    assertEquals(all, firsts);
    assertEquals(all, new ArrayList<>(all), "the settings' list is not changed");
  }

  @Test
  void overheadsAreTimePerOperationOverLibthriftsInTheSameRoundLeavingOutWarmUps() {
    PeerBenchmark benchmark = new PeerBenchmark(settings(StoppingRule.fixed(2), 1.0, 7), quiet());
    List<Measurement> rows = List.of(
        row("libthrift", 0, 1, 1_000_000, 1, 1_000),
        row("securethrift", 0, 1, 50_000_000, 1, 1_000),
        row("libthrift", 1, 100, 1_000_000, 10, 1_000_000),
        row("securethrift", 1, 50, 1_000_000, 10, 2_000_000),
        row("libthrift", 2, 200, 2_000_000, 4, 1_000_000),
        row("securethrift", 2, 100, 1_500_000, 8, 1_000_000));
    List<Overhead> overheads = benchmark.overheads(rows);
    assertEquals(List.of("rt-100B", "connect"), overheads.stream().map(Overhead::metric).toList());
    Overhead rt = overheads.get(0);
    assertEquals("none", rt.group());
    assertEquals("securethrift", rt.variant());
    // Round 1: 20,000 ns against 10,000 per call; round 2: 15,000 against 10,000. Round 0 is a warm-up.
    assertArrayEquals(new double[] {2.0, 1.5}, rt.ratios(), 1e-12);
    assertEquals(2, rt.rounds());
    // Connections: 200,000 ns against 100,000; then 125,000 against 250,000.
    assertArrayEquals(new double[] {2.0, 0.5}, overheads.get(1).ratios(), 1e-12);
  }

  @Test
  void aRoundWithoutOperationsIsLeftOutOfTheRatios() {
    PeerBenchmark benchmark = new PeerBenchmark(settings(StoppingRule.fixed(2), 1.0, 7), quiet());
    List<Overhead> overheads = benchmark.overheads(List.of(
        row("libthrift", 1, 100, 1_000_000, 10, 1_000_000),
        row("securethrift", 1, 0, 1_000_000, 10, 1_000_000),
        row("libthrift", 2, 100, 1_000_000, 10, 1_000_000),
        row("securethrift", 2, 100, 3_000_000, 10, 1_000_000)));
    assertArrayEquals(new double[] {3.0}, overheads.get(0).ratios(), 1e-12, "no call in round 1: no ratio");
    assertEquals(1, overheads.get(0).rounds());
  }

  @Test
  void rowsWithoutTheBaselineCannotBeCompared() {
    PeerBenchmark benchmark = new PeerBenchmark(settings(StoppingRule.fixed(2), 1.0, 7), quiet());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> benchmark.overheads(List.of(
        row("securethrift", 1, 100, 1_000_000, 10, 1_000_000))));
    assertEquals("group none has no rows of the baseline libthrift", e.getMessage());
  }

  /** A cell's row with round trips of 100 B and connections, as {@code round} adds a round's turns up. */
  private static Measurement row(String pairing, int round, long rtOps, long rtNanos, long connectOps,
      long connectNanos) {
    Map<String, Number> values = new LinkedHashMap<>();
    PeerMetric rt = PeerMetric.roundTrips(100);
    values.put(rt.opsColumn(), rtOps);
    values.put(rt.nanosColumn(), rtNanos);
    values.put(PeerMetric.CONNECTIONS.opsColumn(), connectOps);
    values.put(PeerMetric.CONNECTIONS.nanosColumn(), connectNanos);
    return new Measurement("none", pairing, round, values);
  }

  private static LineRecord turn(long jitMillis) {
    return LineRecord.of(PeerCell.DONE).with("ops", 10).with("nanos", 1).with("cpu", 1).with("jit", jitMillis);
  }

  private static PeerSettings settings(StoppingRule rule, double warmUp, int warmUpTurns) {
    BenchMode none = PeerModes.MODES.parse("--modes", "none");
    return new PeerSettings(List.of(none), List.of(Pairing.SECURETHRIFT), List.of(), List.of(100), true, 1.0, 2,
        warmUp, warmUpTurns, rule, Path.of("out"));
  }

  private static PrintStream quiet() {
    return new PrintStream(OutputStream.nullOutputStream());
  }
}
