package io.securethrift.harness;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of an overhead's uncertainty that lives in its forks rather than its rounds. A fork keeps an offset of its
 * own for its life (how its JIT compiled the paths), so rounds of one fork are not independent draws, and a bootstrap
 * over rounds, which treats them as such, gives too narrow an interval: in three idle ingest runs with two forks per
 * mode, the runs' CPU estimates differed by 1.7 times the variance their intervals allowed, and by 1.15 times once
 * the intervals carried the forks' offsets as below.
 *
 * <p>The offsets' variance is the one-way random-effects (ANOVA) estimate from each variant's fork means against its
 * rounds' scatter inside the forks. Two forks give one degree of freedom per variant, too few alone, so the estimate
 * is pooled over the variants of a group (the modes of one server model, say), which share the processes' kind and
 * the machine; it is never below zero. Being estimated from that handful of degrees of freedom, the offsets' share of
 * an estimate's variance is itself uncertain, so the widening also takes Student's quantile at the degrees of freedom
 * of the sum (Satterthwaite's) rather than at the rounds'. All on the log scale of {@link Bootstrap}.
 */
final class ForkOffsets {
  private ForkOffsets() {}

  /** One variant's per-round log ratios and the fork that measured each. */
  record Rounds(double[] logs, int[] forks) {
    Rounds {
      if (logs.length != forks.length) {
        throw new IllegalArgumentException(logs.length + " rounds but " + forks.length + " forks");
      }
    }

    private Map<Integer, double[]> byFork() {
      Map<Integer, double[]> byFork = new LinkedHashMap<>();
      for (int i = 0; i < logs.length; i++) {
        double[] sum = byFork.computeIfAbsent(forks[i], f -> new double[2]);
        sum[0] += logs[i];
        sum[1]++;
      }
      return byFork;
    }
  }

  /** The offsets' variance and the degrees of freedom it was estimated with. */
  record Estimate(double variance, int degrees) {}

  /** The offsets' variance pooled over {@code variants}; 0 where no variant has two forks with rounds to spare. */
  static Estimate variance(List<Rounds> variants) {
    double sum = 0;
    int degrees = 0;
    for (Rounds v : variants) {
      Map<Integer, double[]> byFork = v.byFork();
      int k = byFork.size();
      int n = v.logs().length;
      if (k < 2 || n <= k) {
        continue;
      }
      double mean = Arrays.stream(v.logs()).average().orElseThrow();
      double between = 0;
      double squaredSizes = 0;
      for (double[] f : byFork.values()) {
        between += f[1] * Math.pow(f[0] / f[1] - mean, 2);
        squaredSizes += f[1] * f[1];
      }
      double meanSquareBetween = between / (k - 1);
      double meanSquareWithin = within(v, byFork) / (n - k);
      double roundsPerFork = (n - squaredSizes / n) / (k - 1);
      sum += (k - 1) * (meanSquareBetween - meanSquareWithin) / roundsPerFork;
      degrees += k - 1;
    }
    return new Estimate(degrees == 0 ? 0 : Math.max(0, sum / degrees), degrees);
  }

  /**
   * How much wider than the bootstrap over rounds {@code v}'s interval must be to carry forks' offsets of variance
   * {@code offsets}: the square root of the estimate's variance with them (the rounds' scatter inside the forks, plus
   * each fork's offset weighted by its share of the rounds) over its variance as independent rounds, times the ratio
   * of the two variances' Student quantiles. Never below 1: an interval is never narrowed for them.
   */
  static double widening(Rounds v, Estimate offsets) {
    int n = v.logs().length;
    Map<Integer, double[]> byFork = v.byFork();
    int k = byFork.size();
    if (k < 2 || n <= k || offsets.variance() <= 0) {
      return 1;
    }
    double mean = Arrays.stream(v.logs()).average().orElseThrow();
    double total = Arrays.stream(v.logs()).map(x -> (x - mean) * (x - mean)).sum() / (n - 1) / n;
    if (total <= 0) {
      return 1;
    }
    double shares = byFork.values().stream().mapToDouble(f -> Math.pow(f[1] / n, 2)).sum();
    double rounds = within(v, byFork) / (n - k) / n;
    double forks = offsets.variance() * shares;
    double degrees = Math.pow(rounds + forks, 2)
        / (rounds * rounds / (n - k) + forks * forks / offsets.degrees());
    double quantiles = Bootstrap.studentQuantile((int) Math.max(1, Math.floor(degrees)))
        / Bootstrap.studentQuantile(n - 1);
    return Math.max(1, Math.sqrt((rounds + forks) / total) * quantiles);
  }

  private static double within(Rounds v, Map<Integer, double[]> byFork) {
    double sum = 0;
    for (int i = 0; i < v.logs().length; i++) {
      double[] f = byFork.get(v.forks()[i]);
      sum += Math.pow(v.logs()[i] - f[0] / f[1], 2);
    }
    return sum;
  }
}
