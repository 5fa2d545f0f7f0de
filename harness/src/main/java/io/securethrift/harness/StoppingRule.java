package io.securethrift.harness;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * When to stop adding rounds: once every overhead's interval is at most {@code precision} points either side of its
 * estimate (after at least {@code minRounds}), or when another round would end past {@code maxTime}, or after
 * {@code maxRounds}. A fixed number of rounds is {@code minRounds = maxRounds} with an infinite precision target.
 *
 * @param precision the largest half-width, in points of overhead, that counts as answered
 * @param maxTime the whole run's budget, start-up and warm-up included
 * @param minRounds rounds before the precision target may end the run (a bootstrap on fewer is unreliable)
 * @param maxRounds rounds after which the run ends whatever the intervals; 0 for no limit
 */
public record StoppingRule(double precision, Duration maxTime, int minRounds, int maxRounds) {

  /** Why the run stopped, or that it goes on. */
  public enum Decision {
    CONTINUE, PRECISE, OUT_OF_TIME, ROUNDS_DONE
  }

  public StoppingRule {
    if (!(precision > 0)) {
      throw new IllegalArgumentException("precision must be positive, was " + precision);
    }
    if (minRounds < 1 || (maxRounds != 0 && maxRounds < minRounds)) {
      throw new IllegalArgumentException("need 1 <= minRounds <= maxRounds (or maxRounds 0), got " + minRounds
          + " and " + maxRounds);
    }
  }

  /** Exactly {@code rounds} rounds, whatever the intervals and the time. */
  public static StoppingRule fixed(int rounds) {
    return new StoppingRule(Double.POSITIVE_INFINITY, Duration.ofDays(365), rounds, rounds);
  }

  public boolean fixedRounds() {
    return minRounds == maxRounds && Double.isInfinite(precision);
  }

  /**
   * The rule in words, for the line above a report's table: {@code 4 rounds}, or {@code rounds until every
   * <intervals> is within +/-3.0 points (at least 5) or 280 s have passed}.
   *
   * @param intervals which intervals decide, for example {@code "CPU/entry interval"}
   */
  public String describe(String intervals) {
    if (fixedRounds()) {
      return minRounds + " rounds";
    }
    return String.format(Locale.ROOT, "rounds until every %s is within +/-%.1f points (at least %d%s) or %s s have"
        + " passed", intervals, precision, minRounds, maxRounds > 0 ? ", at most " + maxRounds : "",
        seconds(maxTime));
  }

  /**
   * The rule as a result file's settings record it, under the names of the options that set it: {@code rounds}
   * alone for a fixed number, else {@code rounds} 0 with {@code precision}, {@code maxTimeSeconds},
   * {@code minRounds} and {@code maxRounds} (0: no limit).
   */
  public Map<String, Object> settings() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rounds", fixedRounds() ? minRounds : 0);
    if (!fixedRounds()) {
      m.put("precision", precision);
      m.put("maxTimeSeconds", maxTime.toMillis() / 1000.0);
      m.put("minRounds", minRounds);
      m.put("maxRounds", maxRounds);
    }
    return m;
  }

  private static String seconds(Duration d) {
    double s = d.toMillis() / 1000.0;
    return s == Math.rint(s) ? String.format(Locale.ROOT, "%.0f", s) : String.format(Locale.ROOT, "%.1f", s);
  }

  /**
   * @param rounds rounds done so far
   * @param elapsed time since the run started
   * @param lastRound how long the last round took, the forecast for the next
   * @param intervals the current interval of every overhead the target applies to
   */
  public Decision decide(int rounds, Duration elapsed, Duration lastRound, Collection<Interval> intervals) {
    if (maxRounds != 0 && rounds >= maxRounds) {
      return Decision.ROUNDS_DONE;
    }
    if (rounds >= minRounds && intervals.stream().allMatch(this::met)) {
      return Decision.PRECISE;
    }
    if (elapsed.plus(lastRound).compareTo(maxTime) > 0) {
      return Decision.OUT_OF_TIME;
    }
    return Decision.CONTINUE;
  }

  /** Whether an interval answers to the precision target. */
  public boolean met(Interval interval) {
    return interval.halfWidth() <= precision;
  }

  /** The overheads whose interval is wider than the target, for the report's "did not get there" line. */
  public List<Overhead> unmet(Collection<Overhead> overheads) {
    return overheads.stream().filter(o -> !met(o.interval())).collect(Collectors.toList());
  }
}
