package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BootstrapTest {
  @Test
  void overheadIsTheGeometricMeanOfPerRoundRatios() {
    // Baseline and variant drift together between rounds; every round the variant costs 10 % more.
    Map<Integer, Double> baseline = rounds(100, 200, 150, 120);
    Map<Integer, Double> variant = rounds(110, 220, 165, 132);
    double[] ratios = PairedAnalysis.ratios(baseline, variant);
    assertArrayEquals(new double[] {1.1, 1.1, 1.1, 1.1}, ratios, 1e-12);
    Interval i = Bootstrap.overhead(ratios, 1);
    assertEquals(10.0, i.estimate(), 1e-9);
    assertEquals(10.0, i.low(), 1e-9);
    assertEquals(10.0, i.high(), 1e-9);
    assertEquals("+10.0 % [+10.0, +10.0]", i.format());
    // +21 % and 0 % average to +10 % on the log scale (1.1 * 1.1 = 1.21), not +10.5 %.
    assertEquals(10.0, Bootstrap.overhead(new double[] {1.21, 1.0, 1.21, 1.0}, 1).estimate(), 1e-9);
    // +25 % and -20 % cancel.
    assertEquals(0.0, Bootstrap.overhead(new double[] {1.25, 0.8, 1.25, 0.8}, 1).estimate(), 1e-9);
  }

  @Test
  void roundsOnlyOneSideHasAreLeftOut() {
    Map<Integer, Double> baseline = rounds(100, 100, 100);
    Map<Integer, Double> variant = new LinkedHashMap<>();
    variant.put(3, 150.0);
    variant.put(1, 120.0);
    variant.put(7, 999.0);
    assertArrayEquals(new double[] {1.2, 1.5}, PairedAnalysis.ratios(baseline, variant), 1e-12);
  }

  @Test
  void roundsWithACostBelowTheClocksResolutionAreLeftOut() {
    Map<Integer, Double> baseline = rounds(100, 0, 100, 100);
    Map<Integer, Double> variant = rounds(120, 130, -10, 150);
    assertArrayEquals(new double[] {1.2, 1.5}, PairedAnalysis.ratios(baseline, variant), 1e-12);
    baseline.put(4, Double.NaN);
    assertArrayEquals(new double[] {1.2}, PairedAnalysis.ratios(baseline, variant), 1e-12);
  }

  @Test
  void intervalIsReproducibleAndNeedsThreeRounds() {
    double[] ratios = {1.12, 1.08, 1.15, 1.11, 1.09};
    assertEquals(Bootstrap.overhead(ratios, 7), Bootstrap.overhead(ratios, 7));
    Interval two = Bootstrap.overhead(new double[] {1.1, 1.2}, 7);
    assertFalse(two.bounded());
    assertEquals(Double.POSITIVE_INFINITY, two.halfWidth());
    assertEquals("+14.9 % [n/a]", two.format());
    assertThrows(IllegalArgumentException.class, () -> Bootstrap.overhead(new double[] {1.1, 0, 1.2}, 7));
    assertThrows(IllegalArgumentException.class, () -> Bootstrap.overhead(new double[] {1.1, Double.NaN, 1}, 7));
  }

  /**
   * Known truth: per-round ratios drawn around a true overhead of +12 % with 5 % noise per round. Over 400 simulated
   * runs of 8 rounds the 95 % interval must hold the truth about 95 % of the time.
   */
  @Test
  void intervalCoversTheTrueOverheadAboutNinetyFivePercentOfTheTime() {
    double truth = 12.0;
    Random random = new Random(42);
    int covered = 0;
    int runs = 400;
    double widthSum = 0;
    for (int run = 0; run < runs; run++) {
      double[] ratios = new double[8];
      for (int r = 0; r < ratios.length; r++) {
        ratios[r] = Math.exp(Math.log(1 + truth / 100) + 0.05 * random.nextGaussian());
      }
      Interval i = Bootstrap.overhead(ratios, run);
      widthSum += i.halfWidth();
      if (i.low() <= truth && truth <= i.high()) {
        covered++;
      }
    }
    double coverage = covered / (double) runs;
    assertTrue(coverage >= 0.93 && coverage <= 0.97, "coverage " + coverage);
    // About t(7) * 5.6 % / sqrt(8) = 4.7 points; a sanity check that the width matches the noise.
    double meanHalfWidth = widthSum / runs;
    assertTrue(meanHalfWidth > 3.5 && meanHalfWidth < 6, "mean half-width " + meanHalfWidth);
  }

  @Test
  void studentQuantilesAreCloseToTheTables() {
    assertEquals(4.303, Bootstrap.studentQuantile(2), 0.05);
    assertEquals(2.776, Bootstrap.studentQuantile(4), 0.005);
    assertEquals(2.365, Bootstrap.studentQuantile(7), 0.002);
    assertEquals(2.042, Bootstrap.studentQuantile(30), 0.001);
  }

  @Test
  void differenceOfTwoRunsIsRealOnlyWhenItsIntervalLeavesOutZero() {
    double[] a = {1.10, 1.12, 1.09, 1.11, 1.10, 1.08};
    double[] b = {1.31, 1.29, 1.30, 1.33, 1.28, 1.30};
    Interval real = Bootstrap.difference(a, 1, b, 1, 3);
    assertEquals(Bootstrap.overhead(b, 0).estimate() - Bootstrap.overhead(a, 0).estimate(), real.estimate(), 1e-9);
    assertTrue(real.excludesZero() && real.low() > 15 && real.high() < 25, real.format());
    double[] c = {1.12, 1.08, 1.10, 1.09, 1.11, 1.10};
    assertFalse(Bootstrap.difference(a, 1, c, 1, 3).excludesZero(), Bootstrap.difference(a, 1, c, 1, 3).format());
    // Each run's widening (its forks' offsets) widens the difference as it widened that run's own interval.
    Interval widened = Bootstrap.difference(a, 3, b, 3, 3);
    assertEquals(real.estimate(), widened.estimate(), 1e-9);
    assertTrue(widened.halfWidth() > 2.5 * real.halfWidth(), widened.format() + " against " + real.format());
    assertEquals("an interval's widening must be finite and at least 1, got 0.5",
        assertThrows(IllegalArgumentException.class, () -> Bootstrap.overhead(a, 3, 0.5)).getMessage());
  }

  private static Map<Integer, Double> rounds(double... costs) {
    Map<Integer, Double> m = new LinkedHashMap<>();
    for (int i = 0; i < costs.length; i++) {
      m.put(i + 1, costs[i]);
    }
    return m;
  }
}
