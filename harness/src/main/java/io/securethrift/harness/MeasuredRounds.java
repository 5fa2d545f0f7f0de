package io.securethrift.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The loop every benchmark runs, around its {@link Workload}: the warm-up, then measured rounds, each followed by an
 * analysis of every row so far, the {@link StoppingRule}'s decision (with the round just run as the forecast of the
 * next) and a progress line, until the rule says stop.
 */
public final class MeasuredRounds {
  /** Every row (the warm-up's first), why the rounds stopped, and the overheads of the last analysis. */
  public record Outcome(List<Measurement> rows, StoppingRule.Decision decision, List<Overhead> overheads) {
    public Outcome {
      rows = List.copyOf(rows);
      overheads = List.copyOf(overheads);
    }
  }

  private MeasuredRounds() {}

  /**
   * Runs {@code workload}'s warm-up and rounds 1, 2, … until {@code rule} says stop.
   *
   * @param elapsed the time the run's budget has used so far
   */
  public static Outcome run(Workload workload, StoppingRule rule, Supplier<Duration> elapsed, ProgressLog progress)
      throws IOException {
    List<Measurement> rows = new ArrayList<>(workload.warmUp(rule, elapsed, progress));
    StoppingRule.Decision decision;
    List<Overhead> overheads;
    int number = 0;
    do {
      number++;
      long roundStart = System.nanoTime();
      rows.addAll(workload.round(number));
      Duration roundTime = Duration.ofNanos(System.nanoTime() - roundStart);
      overheads = workload.deciding(rows);
      decision = rule.decide(number, elapsed.get(), roundTime,
          overheads.stream().map(Overhead::interval).collect(Collectors.toList()));
      progress.step(workload.roundLine(number, roundTime, overheads));
    } while (decision == StoppingRule.Decision.CONTINUE);
    return new Outcome(rows, decision, overheads);
  }
}
