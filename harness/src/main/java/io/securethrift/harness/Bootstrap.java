package io.securethrift.harness;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * 95 % intervals for overheads measured as per-round ratios (variant cost / baseline cost in the same round).
 *
 * <p>The estimate is the geometric mean of the ratios, as a percent change: ratios are averaged on the log scale so
 * that +25 % and -20 % cancel, and a slow outlier round moves the estimate less than an arithmetic mean of
 * percentages would. The interval is a percentile bootstrap over rounds (rounds are the independent unit: both sides
 * of a ratio ran back to back). A plain percentile bootstrap is too narrow for the handful of rounds a benchmark
 * affords (it uses the biased variance and normal rather than Student quantiles: about 90 % coverage at 8 rounds),
 * so each resampled mean's deviation from the estimate is widened by sqrt(n / (n - 1)) * t(n - 1) / z, which brings
 * the coverage back to 95 % for well-behaved rounds while keeping the bootstrap's shape for skewed ones. Resampling
 * is seeded, so the same data always gives the same interval.
 */
public final class Bootstrap {
  /** Resamples per interval: enough that the 2.5 % and 97.5 % percentiles move by well under 0.1 point. */
  public static final int RESAMPLES = 10_000;
  /** Fewer rounds than this give an estimate without bounds. */
  public static final int MIN_ROUNDS = 3;
  private static final double LOWER = 0.025;
  private static final double UPPER = 0.975;
  /** The standard normal's 97.5 % quantile. */
  private static final double Z_975 = 1.959963984540054;

  private Bootstrap() {}

  /** The overhead in percent that per-round {@code ratios} show, with its 95 % interval. */
  public static Interval overhead(double[] ratios, long seed) {
    return overhead(ratios, seed, 1);
  }

  /**
   * As {@link #overhead(double[], long)}, with the interval {@code widening} times as wide about the estimate: the
   * share of the uncertainty the rounds cannot show (their forks' offsets, {@link ForkOffsets}).
   */
  public static Interval overhead(double[] ratios, long seed, double widening) {
    double[] logs = logs(ratios);
    double mean = mean(logs);
    if (logs.length < MIN_ROUNDS) {
      return Interval.unbounded(percent(mean));
    }
    double[] means = resampledMeans(logs, widening, new SplittableRandom(seed));
    Arrays.sort(means);
    return new Interval(percent(mean), percent(quantile(means, LOWER)), percent(quantile(means, UPPER)));
  }

  /**
   * How many points the overhead of {@code b} exceeds that of {@code a}, with its 95 % interval, for two independent
   * runs (each resampled on its own, each widened as its own interval was: see {@link #overhead(double[], long,
   * double)}).
   */
  public static Interval difference(double[] a, double wideningA, double[] b, double wideningB, long seed) {
    double[] logsA = logs(a);
    double[] logsB = logs(b);
    double estimate = percent(mean(logsB)) - percent(mean(logsA));
    if (logsA.length < MIN_ROUNDS || logsB.length < MIN_ROUNDS) {
      return Interval.unbounded(estimate);
    }
    SplittableRandom random = new SplittableRandom(seed);
    double[] meansA = resampledMeans(logsA, wideningA, random);
    double[] meansB = resampledMeans(logsB, wideningB, random);
    double[] differences = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      differences[i] = percent(meansB[i]) - percent(meansA[i]);
    }
    Arrays.sort(differences);
    return new Interval(estimate, quantile(differences, LOWER), quantile(differences, UPPER));
  }

  /** The per-round ratios as percent changes, for reports. */
  public static double[] percents(double[] ratios) {
    return Arrays.stream(ratios).map(r -> (r - 1) * 100).toArray();
  }

  private static double[] resampledMeans(double[] logs, double widening, SplittableRandom random) {
    if (!(widening >= 1) || Double.isInfinite(widening)) {
      throw new IllegalArgumentException("an interval's widening must be finite and at least 1, got " + widening);
    }
    int n = logs.length;
    double mean = mean(logs);
    double widen = widening * Math.sqrt(n / (n - 1.0)) * studentQuantile(n - 1) / Z_975;
    double[] means = new double[RESAMPLES];
    for (int r = 0; r < RESAMPLES; r++) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += logs[random.nextInt(n)];
      }
      means[r] = mean + widen * (sum / n - mean);
    }
    return means;
  }

  /**
   * Student's t 97.5 % quantile for {@code df} degrees of freedom, by the Cornish-Fisher expansion around the normal
   * quantile (within 1 % of the exact value from 2 degrees of freedom: 4.27 for 4.303, 2.775 for 2.776 at 4).
   */
  static double studentQuantile(int df) {
    double z = Z_975;
    double z3 = z * z * z;
    double z5 = z3 * z * z;
    double z7 = z5 * z * z;
    double z9 = z7 * z * z;
    double v = df;
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
        + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v * v * v * v);
  }

  private static double[] logs(double[] ratios) {
    for (double r : ratios) {
      if (!(r > 0) || Double.isInfinite(r)) {
        throw new IllegalArgumentException("a ratio of costs must be positive and finite, got " + r);
      }
    }
    return Arrays.stream(ratios).map(Math::log).toArray();
  }

  private static double mean(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no rounds to estimate from");
    }
    return Arrays.stream(values).sum() / values.length;
  }

  /** Linear interpolation between order statistics of sorted {@code values}. */
  private static double quantile(double[] sorted, double q) {
    double position = q * (sorted.length - 1);
    int below = (int) Math.floor(position);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
  }

  private static double percent(double meanLog) {
    return (Math.exp(meanLog) - 1) * 100;
  }
}
