package io.securethrift.harness;

import java.util.List;

/**
 * Whether repeated runs' intervals are honest: as wide as the runs' differences say they must be, no wider and no
 * narrower. Two figures for a set of rows (one metric's variants, say), each row one 95 % interval per run:
 *
 * <ul>
 *   <li>Cochran's Q: in each row, the runs' estimates' squared distances from their weighted mean, in units of each
 *       run's standard error (read off its interval), summed over the rows, on the log scale of {@link Bootstrap}.
 *       Honest intervals give Q / df = 1 on average, and above {@link #upperBound} in 5 % of cases; far above says the
 *       intervals are too narrow for what moves between runs, far below that they are too wide.
 *   <li>What the agreement test that every run's interval covers every other run's estimate can expect of honest
 *       intervals ({@link #allCovered}): two runs' estimates differ by more than their own 95 % interval allows more
 *       often than one time in twenty, because both moved. For three runs a row passes with probability 0.65 only,
 *       so seven rows all pass with probability 0.05 and fourteen with 0.0025.
 * </ul>
 */
public final class Calibration {
  /** The standard normal's 97.5 % quantile: a 95 % interval's half-width in standard errors. */
  private static final double Z_975 = 1.959963984540054;
  /** The standard normal's 95 % quantile, for the one-sided bound on Q. */
  private static final double Z_95 = 1.6448536269514722;

  private final double q;
  private final int degrees;

  private Calibration(double q, int degrees) {
    this.q = q;
    this.degrees = degrees;
  }

  /** Q over {@code rows}, each row the runs' bounded intervals of one variant (rows of one run are left out). */
  public static Calibration of(List<List<Interval>> rows) {
    double q = 0;
    int degrees = 0;
    for (List<Interval> row : rows) {
      if (row.size() < 2) {
        continue;
      }
      double weights = 0;
      double weighted = 0;
      double[] logs = new double[row.size()];
      double[] w = new double[row.size()];
      for (int i = 0; i < row.size(); i++) {
        Interval in = row.get(i);
        if (!in.bounded() || !(in.high() > in.low())) {
          throw new IllegalArgumentException("a run's interval must be bounded and wider than a point, got "
              + in.format());
        }
        logs[i] = log(in.estimate());
        double se = (log(in.high()) - log(in.low())) / (2 * Z_975);
        w[i] = 1 / (se * se);
        weights += w[i];
        weighted += w[i] * logs[i];
      }
      double mean = weighted / weights;
      for (int i = 0; i < row.size(); i++) {
        q += w[i] * (logs[i] - mean) * (logs[i] - mean);
      }
      degrees += row.size() - 1;
    }
    return new Calibration(q, degrees);
  }

  /** Q divided by its degrees of freedom: 1 on average for honest intervals. */
  public double ratio() {
    return degrees == 0 ? Double.NaN : q / degrees;
  }

  public int degrees() {
    return degrees;
  }

  /** The ratio honest intervals stay below 95 % of the time (chi-squared's quantile, by Wilson and Hilferty). */
  public double upperBound() {
    if (degrees == 0) {
      return Double.NaN;
    }
    double a = 2.0 / (9 * degrees);
    return Math.pow(1 - a + Z_95 * Math.sqrt(a), 3);
  }

  /**
   * The probability that {@code runs} honest 95 % intervals of equal width all cover each other's estimates: that
   * the range of {@code runs} standard normal draws is at most 1.96, k ∫ φ(x) (Φ(x + 1.96) − Φ(x))^(k−1) dx.
   */
  public static double allCovered(int runs) {
    if (runs < 2) {
      return 1;
    }
    int steps = 4000;
    double from = -9;
    double h = 18.0 / steps;
    double sum = 0;
    for (int i = 0; i <= steps; i++) {
      double x = from + i * h;
      double f = density(x) * Math.pow(cumulative(x + Z_975) - cumulative(x), runs - 1);
      sum += f * (i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2);
    }
    return runs * sum * h / 3;
  }

  private static double log(double percent) {
    return Math.log1p(percent / 100);
  }

  private static double density(double x) {
    return Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  }

  /** The standard normal's distribution function, from erfc by Numerical Recipes' Chebyshev fit (error < 1.2e-7). */
  private static double cumulative(double x) {
    double z = Math.abs(x) / Math.sqrt(2);
    double t = 1 / (1 + z / 2);
    double erfc = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
        + t * 0.17087277)))))))));
    return x >= 0 ? 1 - erfc / 2 : erfc / 2;
  }
}
