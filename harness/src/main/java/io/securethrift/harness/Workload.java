package io.securethrift.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What one benchmark measures, in the shape every benchmark shares: warm-up rows, then rounds in which each mode and
 * its baseline take turns, then the overheads that decide when to stop. {@link MeasuredRounds#run} runs it; the
 * benchmark starts its targets before and writes its report from the {@link MeasuredRounds.Outcome} after. Adding a
 * benchmark means implementing this interface (see docs/benchmarks.md, "Adding a benchmark").
 */
public interface Workload {
  /**
   * Runs the warm-up and returns its rows, numbered {@code 0} and below so they are never analysed; most workloads
   * call {@link WarmUp#run} with their own round.
   */
  List<Measurement> warmUp(StoppingRule rule, Supplier<Duration> elapsed, ProgressLog progress) throws IOException;

  /** One measured round: every target's iterations, their rows numbered {@code round}. */
  List<Measurement> round(int round) throws IOException;

  /** The overheads the stopping rule judges, from every row so far (warm-up rows included, to be left out). */
  List<Overhead> deciding(List<Measurement> rows);

  /** The progress line after a round; by default its time and the widest interval the stopping rule judges. */
  default String roundLine(int round, Duration roundTime, List<Overhead> deciding) {
    Overhead widest = deciding.stream().max((a, b) -> Double.compare(a.interval().halfWidth(),
        b.interval().halfWidth())).orElse(null);
    String width = widest == null ? "" : widest.interval().bounded() ? String.format(Locale.ROOT,
        "; widest interval +/-%.1f points (%s %s %s)", widest.interval().halfWidth(), widest.group(),
        widest.variant(), widest.metric()) : "; intervals need " + Bootstrap.MIN_ROUNDS + " rounds";
    return String.format(Locale.ROOT, "round %d done in %.0f s%s", round, roundTime.toMillis() / 1e3, width);
  }
}
