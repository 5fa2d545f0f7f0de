package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Forks' lasting offsets, estimated from the rounds and carried into the intervals. */
class ForkOffsetsTest {
  private static final double D = 0.05;
  private static final double S = 0.01;

  @Test
  void offsetsAreWhatTheForkMeansDifferBeyondTheirRoundsScatter() {
    // Fork 0 runs D above the mean, fork 1 D below, each round S either side of its fork's mean.
    ForkOffsets.Rounds v = twoForks(D, S);
    // Between forks: 8 D^2 on 1 degree of freedom; within: 8 S^2 on 6; 4 rounds per fork: (8 D^2 - 8 S^2 / 6) / 4.
    double expected = Math.round((2 * D * D - S * S / 3) * 1e12) / 1e12;
    assertEquals(new ForkOffsets.Estimate(expected, 1), round(ForkOffsets.variance(List.of(v))));
    assertEquals(new ForkOffsets.Estimate(expected, 2), round(ForkOffsets.variance(List.of(v, twoForks(D, S)))),
        "pooled over variants");
    // Independent rounds would put the estimate's variance at (8 D^2 + 8 S^2) / 7 / 8; with the offsets it is
    // 8 S^2 / 6 / 8 + expected / 2, 6.3 times as much. Almost all of it is the offsets', estimated on 2 degrees of
    // freedom, so the quantile is Student's at 2 rather than at 7 (4.303 against 2.365).
    double widening = ForkOffsets.widening(v, new ForkOffsets.Estimate(expected, 2));
    double variances = Math.sqrt((S * S / 6 + expected / 2) / ((8 * D * D + 8 * S * S) / 56));
    assertEquals(variances * Bootstrap.studentQuantile(2) / Bootstrap.studentQuantile(7), widening, 1e-9);
    assertTrue(widening > 4.5, "widening " + widening);
  }

  @Test
  void oneForkOrForksThatAgreeLeaveTheIntervalAlone() {
    ForkOffsets.Rounds same = twoForks(0, S);
    assertEquals(new ForkOffsets.Estimate(0, 1), ForkOffsets.variance(List.of(same)), "never below zero");
    assertEquals(1, ForkOffsets.widening(same, new ForkOffsets.Estimate(0, 1)));
    ForkOffsets.Rounds oneFork = new ForkOffsets.Rounds(new double[] {0.1, 0.2, 0.3}, new int[] {0, 0, 0});
    assertEquals(new ForkOffsets.Estimate(0, 0), ForkOffsets.variance(List.of(oneFork)));
    assertEquals(1, ForkOffsets.widening(oneFork, new ForkOffsets.Estimate(0.01, 7)));
    assertEquals(new ForkOffsets.Estimate(0, 0), ForkOffsets.variance(List.of()));
    assertEquals("2 rounds but 3 forks",
        assertThrows(IllegalArgumentException.class, () -> new ForkOffsets.Rounds(new double[2], new int[3]))
            .getMessage());
  }

  /**
   * Seven variants with a true overhead of +20 %, two forks of eight rounds each, every fork offset for its life by
   * as much as a round scatters (standard deviation 0.03 on the log scale, each). The interval over rounds alone
   * misses the truth far more often than 5 %; widened for the offsets it holds the truth about 95 % of the time.
   */
  @Test
  void widenedIntervalsHoldTheTruthDespiteForkOffsets() {
    Random random = new Random(17);
    int runs = 150;
    int variants = 7;
    int held = 0;
    int heldByRounds = 0;
    for (int run = 0; run < runs; run++) {
      List<Measurement> rows = new ArrayList<>();
      for (int v = 0; v < variants; v++) {
        double[] offsets = {0.03 * random.nextGaussian(), 0.03 * random.nextGaussian()};
        for (int round = 1; round <= 16; round++) {
          int fork = Forks.measuring(round, 2);
          double cost = 1.2 * Math.exp(offsets[fork] + 0.03 * random.nextGaussian());
          rows.add(new Measurement("g", "v" + v, round, Map.of("cost", cost, Forks.COLUMN, fork)));
          rows.add(new Measurement("g", "v" + v + "/none", round, Map.of("cost", 1.0, Forks.COLUMN, fork)));
        }
      }
      rows.add(new Measurement("g", "none", 1, Map.of("cost", 1.0)));
      for (Overhead o : PairedAnalysis.overheads(rows, "none", "cost", m -> m.value("cost"), run)) {
        held += o.interval().low() <= 20 && 20 <= o.interval().high() ? 1 : 0;
        Interval byRounds = Bootstrap.overhead(o.ratios(), run);
        heldByRounds += byRounds.low() <= 20 && 20 <= byRounds.high() ? 1 : 0;
      }
    }
    double coverage = held / (double) (runs * variants);
    double coverageByRounds = heldByRounds / (double) (runs * variants);
    assertTrue(coverage > 0.92 && coverage < 0.99, "widened coverage " + coverage);
    assertTrue(coverageByRounds < 0.85, "coverage over rounds alone " + coverageByRounds);
  }

  private static ForkOffsets.Estimate round(ForkOffsets.Estimate e) {
    return new ForkOffsets.Estimate(Math.round(e.variance() * 1e12) / 1e12, e.degrees());
  }

  private static ForkOffsets.Rounds twoForks(double offset, double scatter) {
    double[] logs = new double[8];
    int[] forks = new int[8];
    for (int i = 0; i < 8; i++) {
      forks[i] = i / 4;
      logs[i] = 0.2 + (forks[i] == 0 ? offset : -offset) + (i % 2 == 0 ? -scatter : scatter);
    }
    return new ForkOffsets.Rounds(logs, forks);
  }
}
