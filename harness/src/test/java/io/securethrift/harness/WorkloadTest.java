package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The loop every benchmark runs around its workload: the warm-up's rows first and never analysed, then rounds until
 * the stopping rule's intervals are narrow enough, a progress line after each; and the default round line.
 */
class WorkloadTest {
  /** A mode whose cost is its baseline's times {@code ratio}, with a little noise that differs from round to round. */
  private static final class Constant implements Workload {
    private final double ratio;
    private final List<Integer> roundsRun = new ArrayList<>();
    private final List<Integer> analysedRounds = new ArrayList<>();

    Constant(double ratio) {
      this.ratio = ratio;
    }

    @Override
    public List<Measurement> warmUp(StoppingRule rule, Supplier<Duration> elapsed, ProgressLog log) {
      log.step("warm-up done");
      return rows(0);
    }

    @Override
    public List<Measurement> round(int round) {
      roundsRun.add(round);
      return rows(round);
    }

    private List<Measurement> rows(int round) {
      double noise = 1 + (round % 3) * 0.001;
      return List.of(new Measurement("g", "none", round, Map.of("ns", 1000.0)),
          new Measurement("g", "tls", round, Map.of("ns", 1000.0 * ratio * noise)));
    }

    @Override
    public List<Overhead> deciding(List<Measurement> rows) {
      analysedRounds.add((int) rows.stream().filter(m -> !m.warmUp()).count() / 2);
      return PairedAnalysis.overheads(rows, "none", "time", m -> m.value("ns"), 1L);
    }
  }

  @Test
  void roundsRunAfterTheWarmUpUntilTheIntervalsAreNarrowAndTheWarmUpIsNeverAnalysed() throws Exception {
    Constant workload = new Constant(1.2);
    ByteArrayOutputStream lines = new ByteArrayOutputStream();
    MeasuredRounds.Outcome outcome = MeasuredRounds.run(workload, new StoppingRule(3.0, Duration.ofMinutes(5), 3, 0),
        () -> Duration.ZERO, new ProgressLog(new PrintStream(lines, true, StandardCharsets.UTF_8)));
    assertEquals(StoppingRule.Decision.PRECISE, outcome.decision());
    assertEquals(List.of(1, 2, 3), workload.roundsRun, "the minimum of 3 rounds, then narrow enough");
    assertEquals(List.of(1, 2, 3), workload.analysedRounds, "the warm-up's round 0 rows are left out");
    assertEquals(8, outcome.rows().size(), "the warm-up's rows stay in the raw data, first");
    assertEquals(0, outcome.rows().get(0).round());
    assertEquals(20.0, outcome.overheads().get(0).interval().estimate(), 0.2);
    List<String> progress = lines.toString(StandardCharsets.UTF_8).lines().map(l -> l.substring(9))
        .collect(Collectors.toList());
    assertEquals("warm-up done", progress.get(0));
    assertTrue(progress.get(1).startsWith("round 1 done in 0 s; intervals need 3 rounds"), progress.get(1));
    assertTrue(progress.get(3).startsWith("round 3 done in 0 s; widest interval +/-"), progress.get(3));
    assertEquals(4, progress.size());
  }

  @Test
  void aFixedNumberOfRoundsRunsThatMany() throws Exception {
    Constant workload = new Constant(1.0);
    MeasuredRounds.Outcome outcome = MeasuredRounds.run(workload, StoppingRule.fixed(5), () -> Duration.ZERO,
        new ProgressLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    assertEquals(StoppingRule.Decision.ROUNDS_DONE, outcome.decision());
    assertEquals(List.of(1, 2, 3, 4, 5), workload.roundsRun);
  }

  @Test
  void theRoundLineNamesTheWidestIntervalOrWhyThereIsNone() {
    Workload workload = new Constant(1.0);
    Overhead narrow = new Overhead("threadpool", "tls-jsse", "cpu", new double[] {1, 1, 1}, new Interval(5, 4, 6));
    Overhead wide = new Overhead("nonblocking", "sasl-auth", "cpu", new double[] {1, 1, 1},
        new Interval(10, 6.5, 13.5));
    assertEquals("round 7 done in 13 s; widest interval +/-3.5 points (nonblocking sasl-auth cpu)",
        workload.roundLine(7, Duration.ofMillis(12_600), List.of(narrow, wide)));
    Overhead early = new Overhead("threadpool", "tls-jsse", "cpu", new double[] {1}, Interval.unbounded(5));
    assertEquals("round 1 done in 4 s; intervals need 3 rounds",
        workload.roundLine(1, Duration.ofSeconds(4), List.of(narrow, early)), "an unbounded interval is the widest");
    assertEquals("round 2 done in 0 s", workload.roundLine(2, Duration.ofMillis(400), List.of()),
        "the baseline alone has no overheads");
  }
}
