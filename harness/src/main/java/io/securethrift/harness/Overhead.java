package io.securethrift.harness;

/**
 * What one variant costs against the baseline of its group on one metric: the per-round ratios (variant / baseline,
 * paired by round) and the interval {@link Bootstrap#overhead(double[], long, double)} draws from them, widened by
 * {@code widening} (at least 1) for what the rounds cannot show: their forks' offsets ({@link ForkOffsets}).
 */
public record Overhead(String group, String variant, String metric, double[] ratios, double widening,
    Interval interval) {

  /** An overhead whose interval is the bootstrap's over its rounds alone. */
  public Overhead(String group, String variant, String metric, double[] ratios, Interval interval) {
    this(group, variant, metric, ratios, 1, interval);
  }

  public int rounds() {
    return ratios.length;
  }
}
