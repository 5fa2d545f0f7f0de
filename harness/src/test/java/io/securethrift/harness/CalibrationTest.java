package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CalibrationTest {
  private static final double Z = 1.959963984540054;

  @Test
  void honestIntervalsCoverEachOtherLessOftenThanNineteenTimesInTwenty() {
    assertEquals(1, Calibration.allCovered(1));
    // Two runs: their difference has sqrt(2) standard errors, so it stays within 1.96 of them with P(|Z| <= 1.386).
    assertEquals(0.8342, Calibration.allCovered(2), 5e-4);
    assertEquals(0.652, Calibration.allCovered(3), 2e-3);
    double three = Calibration.allCovered(3);
    assertEquals(0.0025, Math.pow(three, 14), 5e-4, "fourteen rows of three runs");
  }

  @Test
  void qMeasuresTheRunsDifferencesInTheirIntervalsStandardErrors() {
    // Log estimates 0.10 and 0.13, each with a standard error of 0.01: 1.5 standard errors from their mean each.
    Calibration c = Calibration.of(List.of(List.of(interval(0.10, 0.01), interval(0.13, 0.01)), List.of()));
    assertEquals(1, c.degrees());
    assertEquals(4.5, c.ratio(), 1e-6);
    // Chi-squared's 95 % quantile is 23.685 on 14 degrees of freedom.
    assertEquals(23.685 / 14, Calibration.of(rows(7, 3, 1, new Random(1))).upperBound(), 2e-3);
    assertTrue(Double.isNaN(Calibration.of(List.of()).ratio()));
    assertEquals("a run's interval must be bounded and wider than a point, got +5.0 % [n/a]",
        assertThrows(IllegalArgumentException.class,
            () -> Calibration.of(List.of(List.of(Interval.unbounded(5), interval(0.1, 0.01))))).getMessage());
  }

  @Test
  void honestIntervalsGiveOneAndNarrowOnesMore() {
    Random random = new Random(5);
    assertEquals(1, Calibration.of(rows(2000, 3, 1, random)).ratio(), 0.05);
    // Intervals half as wide as the runs' real noise: four times the variance they allow.
    assertEquals(4, Calibration.of(rows(2000, 3, 0.5, random)).ratio(), 0.2);
  }

  /** Rows of runs whose log estimates scatter by 0.02 and whose intervals claim {@code claimed} times that. */
  private static List<List<Interval>> rows(int rows, int runs, double claimed, Random random) {
    List<List<Interval>> all = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      List<Interval> row = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        row.add(interval(0.2 + 0.02 * random.nextGaussian(), 0.02 * claimed));
      }
      all.add(row);
    }
    return all;
  }

  private static Interval interval(double log, double se) {
    return new Interval(percent(log), percent(log - Z * se), percent(log + Z * se));
  }

  private static double percent(double log) {
    return (Math.exp(log) - 1) * 100;
  }
}
