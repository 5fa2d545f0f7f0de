package io.securethrift.benchstats;

/**
 * What one variant costs against the baseline of its group on one metric: the per-round ratios (variant / baseline,
 * paired by round) and the interval {@link Bootstrap#overhead} draws from them.
 */
public record Overhead(String group, String variant, String metric, double[] ratios, Interval interval) {

  public int rounds() {
    return ratios.length;
  }
}
