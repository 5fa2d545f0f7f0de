package io.securethrift.harness;

import java.util.Locale;

/**
 * A change in percent with its 95 % confidence interval, for example an overhead of {@code +12.3 % [+9.8, +14.9]}.
 * The bounds are NaN when there were too few rounds to estimate them.
 */
public record Interval(double estimate, double low, double high) {

  /** An estimate without bounds (fewer rounds than an interval needs). */
  public static Interval unbounded(double estimate) {
    return new Interval(estimate, Double.NaN, Double.NaN);
  }

  public boolean bounded() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }

  /** Half the interval's width in points; infinite when unbounded, so no precision target is ever met by it. */
  public double halfWidth() {
    return bounded() ? (high - low) / 2 : Double.POSITIVE_INFINITY;
  }

  /** Whether the interval leaves out zero: the change is real at the 95 % level. */
  public boolean excludesZero() {
    return bounded() && (low > 0 || high < 0);
  }

  /** {@code +12.3 % [+9.8, +14.9]}, or {@code +12.3 % [n/a]} without bounds. */
  public String format() {
    return String.format(Locale.ROOT, "%+.1f %% %s", estimate, bounds());
  }

  /**
   * This cost overhead in percent as a speed ratio, variant rate over baseline rate: {@code 100 / (100 + x)}, the
   * bounds swapped (a dearer bound is a slower one).
   */
  public Interval asSpeedRatio() {
    return new Interval(speed(estimate), speed(high), speed(low));
  }

  private static double speed(double costPercent) {
    return 100 / (100 + costPercent);
  }

  /** This interval as a ratio: {@code 1.03× [0.99, 1.07]}, {@code 1.03× [n/a]} without bounds, or {@code n/a}. */
  public String formatRatio() {
    if (Double.isNaN(estimate)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%.2f× %s", estimate, bounded()
        ? String.format(Locale.ROOT, "[%.2f, %.2f]", low, high) : "[n/a]");
  }

  /** {@code [+9.8, +14.9]}, or {@code [n/a]} without bounds. */
  public String bounds() {
    return bounded() ? String.format(Locale.ROOT, "[%+.1f, %+.1f]", low, high) : "[n/a]";
  }
}
