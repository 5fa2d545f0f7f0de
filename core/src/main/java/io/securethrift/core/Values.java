package io.securethrift.core;

import io.securethrift.core.internal.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations, sizes and booleans in the forms Accumulo's configuration accepts. */
final class Values {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)?");
  private static final Pattern SIZE = Pattern.compile("(\\d+)([bkmg])?");

  private Values() {}

  /** {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 1d}; a bare number is seconds, as in Accumulo. */
  static Duration duration(String key, String text) {
    Matcher m = DURATION.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new ConfigException(key, "'" + text + "' is not a duration; write a whole number with a unit: ms, s, m, h"
          + " or d (for example 30s); a bare number means seconds");
    }
    try {
      Duration d = duration(m);
      // Timeouts end up in milliseconds (sockets, formatDuration); refuse what they cannot hold.
      d.toMillis();
      return d;
    } catch (NumberFormatException | ArithmeticException e) {
      throw new ConfigException(key, "'" + text + "' is too large");
    }
  }

  private static Duration duration(Matcher m) {
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    switch (unit) {
      case "ms":
        return Duration.ofMillis(n);
      case "s":
        return Duration.ofSeconds(n);
      case "m":
        return Duration.ofMinutes(n);
      case "h":
        return Duration.ofHours(n);
      default:
        return Duration.ofDays(n);
    }
  }

  /** A whole number such as {@code 1000}. */
  static int count(String key, String text) {
    String t = text == null ? "" : text.trim();
    try {
      return Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new ConfigException(key, "'" + text + "' is not a whole number");
    }
  }

  /** {@code 1024}, {@code 64K}, {@code 16M}, {@code 1G} (binary multiples); a bare number is bytes. */
  static long size(String key, String text) {
    Matcher m = SIZE.matcher(text == null ? "" : text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new ConfigException(key, "'" + text + "' is not a size; write a whole number of bytes, optionally with K, M"
          + " or G (for example 16M)");
    }
    String unit = m.group(2) == null ? "b" : m.group(2);
    int shift = unit.equals("k") ? 10 : unit.equals("m") ? 20 : unit.equals("g") ? 30 : 0;
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      n = -1; // more digits than a long holds
    }
    if (n < 0 || n > (Long.MAX_VALUE >> shift)) {
      throw new ConfigException(key, "'" + text + "' is too large");
    }
    return n << shift;
  }

  static boolean bool(String key, String text) {
    String t = text == null ? "" : text.trim();
    if (t.equals("true")) {
      return true;
    }
    if (t.equals("false")) {
      return false;
    }
    throw new ConfigException(key, "'" + text + "' is not accepted; accepted values: true, false");
  }

  static String formatDuration(Duration d) {
    return Durations.format(d);
  }

  static String formatSize(long bytes) {
    if (bytes % (1 << 20) == 0) {
      return (bytes >> 20) + "M";
    }
    if (bytes % (1 << 10) == 0) {
      return (bytes >> 10) + "K";
    }
    return Long.toString(bytes);
  }
}
