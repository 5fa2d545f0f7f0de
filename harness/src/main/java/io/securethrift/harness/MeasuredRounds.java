package io.securethrift.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The measured rounds of a run, the same loop in every benchmark: run a round, analyse every row so far, ask the
 * {@link StoppingRule} whether to go on (with the round just run as the forecast of the next), report, repeat.
 */
public final class MeasuredRounds {
  /** The overheads the precision target applies to, from every row so far. */
  @FunctionalInterface
  public interface Analysis {
    List<Overhead> of(List<Measurement> rows);
  }

  /** Told after every round: its number, how long it took and the overheads after it. */
  @FunctionalInterface
  public interface Progress {
    void roundDone(int round, Duration roundTime, List<Overhead> overheads);
  }

  /** Why the rounds stopped, and the overheads of the last analysis. */
  public record Outcome(StoppingRule.Decision decision, List<Overhead> overheads) {
    public Outcome {
      overheads = List.copyOf(overheads);
    }
  }

  private MeasuredRounds() {}

  /**
   * Runs rounds 1, 2, … until {@code rule} says stop, adding their rows to {@code rows} (which holds the warm-up's).
   *
   * @param elapsed the time the run's budget has used so far
   */
  public static Outcome run(StoppingRule rule, List<Measurement> rows, WarmUp.Round round, Analysis analysis,
      Supplier<Duration> elapsed, Progress progress) throws IOException {
    StoppingRule.Decision decision;
    List<Overhead> overheads;
    int number = 0;
    do {
      number++;
      long roundStart = System.nanoTime();
      rows.addAll(round.run(number));
      Duration roundTime = Duration.ofNanos(System.nanoTime() - roundStart);
      overheads = analysis.of(rows);
      decision = rule.decide(number, elapsed.get(), roundTime,
          overheads.stream().map(Overhead::interval).collect(Collectors.toList()));
      progress.roundDone(number, roundTime, overheads);
    } while (decision == StoppingRule.Decision.CONTINUE);
    return new Outcome(decision, overheads);
  }
}
