package io.securethrift.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Warm-up rounds: rounds run before the measured ones and exactly like them (every target, each mode's own baseline
 * right beside it in the same alternating order), so that every JVM has compiled and profiled the paths it is
 * measured on, both the mode's and its baseline's. Their rows stay in the raw data, numbered {@code 1 - n} to
 * {@code 0} so that measured rounds start at 1, and are never analysed ({@link Measurement#warmUp()}).
 *
 * <p>Several rounds rather than one iteration: in four idle default runs of ingest-bench with a single warm-up
 * iteration, every mode's first measured round came out about 60 % dearer relative to its baseline than the later
 * rounds (the secured paths were still being compiled while the baseline's were ready), the next four rounds
 * scattered 1.3 to 2.3 times as widely as the later ones, and the JVMs' CPU per iteration kept falling for about
 * seven rounds. Each warm-up round takes the time of a measured one, so a benchmark whose early rounds are hardly
 * off keeps a lower default.
 */
public final class WarmUp {
  /**
   * How many times as long as a warm round the first round, of cold JVMs, is taken to be when forecasting the second:
   * no more than it was in any run measured (ingest-bench's default took 77 to 85 s against 8 to 14 s for later
   * rounds; zk-bench's 22 to 24 s against 7 to 10 s). Forecasting the second round at the first one's pace left every
   * default ingest-bench run with one warm-up round of three, and the rounds measured after it came out up to 1.9
   * times dearer against their baselines than the later ones.
   */
  static final int COLD_ROUND_FACTOR = 3;

  /** One round of a benchmark: every target's iterations, their rows numbered {@code round}. */
  @FunctionalInterface
  public interface Round {
    List<Measurement> run(int round) throws IOException;
  }

  private WarmUp() {}

  /**
   * Runs up to {@code count} warm-up rounds, numbered {@code 1 - count} to {@code 0}, and returns their rows. The
   * first always runs; each later one only while it and the {@value Bootstrap#MIN_ROUNDS} measured rounds an
   * interval needs, at the pace of the last round ({@link #COLD_ROUND_FACTOR} times faster after the first), still
   * end within {@code rule}'s time budget: on a slow machine the run then measures after a shorter warm-up rather
   * than ending without an interval. (Not the rule's minimum rounds, which would leave out the warm-up of a default
   * run.)
   *
   * @param elapsed the time the run's budget has used so far, also the clock that times the rounds
   * @param progress where a line goes after each round, and when the rest of the warm-up is left out
   */
  public static List<Measurement> run(int count, Round round, StoppingRule rule, Supplier<Duration> elapsed,
      Consumer<String> progress) throws IOException {
    List<Measurement> rows = new ArrayList<>();
    Duration last = Duration.ZERO;
    for (int i = 1; i <= count; i++) {
      Duration pace = i == 2 ? last.dividedBy(COLD_ROUND_FACTOR) : last;
      Duration needed = pace.multipliedBy(1L + Bootstrap.MIN_ROUNDS);
      if (i > 1 && elapsed.get().plus(needed).compareTo(rule.maxTime()) > 0) {
        progress.accept(String.format(Locale.ROOT, "warm-up stopped after %d of %d rounds: another, and the %d"
            + " measured rounds an interval needs, would pass the %d s budget", i - 1, count, Bootstrap.MIN_ROUNDS,
            rule.maxTime().toSeconds()));
        break;
      }
      int number = i - count;
      Duration start = elapsed.get();
      rows.addAll(round.run(number));
      last = elapsed.get().minus(start);
      progress.accept(String.format(Locale.ROOT, "%s done in %.0f s", label(number), last.toMillis() / 1e3));
    }
    return rows;
  }

  /** The warm-up in words, for the line above a report's table: {@code no warm-up}, {@code 3 warm-up rounds}. */
  public static String describe(int rounds) {
    return rounds == 0 ? "no warm-up" : rounds + " warm-up round" + (rounds > 1 ? "s" : "");
  }

  /** How progress lines name a round: {@code warm-up round -1}, or {@code round 3}. */
  public static String label(int round) {
    return (round <= 0 ? "warm-up round " : "round ") + round;
  }
}
