package io.securethrift.benchstats;

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

  /** {@code [+9.8, +14.9]}, or {@code [n/a]} without bounds. */
  public String bounds() {
    return bounded() ? String.format(Locale.ROOT, "[%+.1f, %+.1f]", low, high) : "[n/a]";
  }
}
