package io.securethrift.harness;

import java.util.Locale;

/** Reading a summary row's values back from a {@link ResultsFile}, where a missing figure is not a number. */
public final class SummaryValues {
  private SummaryValues() {}

  /** The value as a double; {@code NaN} when it is not a number (missing, or written as {@code null}). */
  public static double number(Object value) {
    return value instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** The value formatted with {@code format}, or {@code n/a} when it is not a finite number. */
  public static String format(Object value, String format) {
    return value instanceof Number n && Double.isFinite(n.doubleValue())
        ? String.format(Locale.ROOT, format, n.doubleValue()) : "n/a";
  }
}
