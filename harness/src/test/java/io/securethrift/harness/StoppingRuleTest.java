package io.securethrift.harness;

import static io.securethrift.harness.StoppingRule.Decision.CONTINUE;
import static io.securethrift.harness.StoppingRule.Decision.OUT_OF_TIME;
import static io.securethrift.harness.StoppingRule.Decision.PRECISE;
import static io.securethrift.harness.StoppingRule.Decision.ROUNDS_DONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoppingRuleTest {
  private static final Interval NARROW = new Interval(10, 8, 12);
  private static final Interval WIDE = new Interval(10, 5, 15);
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void stopsWhenEveryIntervalIsNarrowEnoughButNotBeforeTheMinimumRounds() {
    StoppingRule rule = new StoppingRule(3, Duration.ofMinutes(5), 5, 0);
    assertEquals(CONTINUE, rule.decide(4, MINUTE, Duration.ofSeconds(10), List.of(NARROW, NARROW)));
    assertEquals(PRECISE, rule.decide(5, MINUTE, Duration.ofSeconds(10), List.of(NARROW, NARROW)));
    assertEquals(CONTINUE, rule.decide(5, MINUTE, Duration.ofSeconds(10), List.of(NARROW, WIDE)));
    // An interval without bounds (too few rounds) never counts as precise.
    assertEquals(CONTINUE, rule.decide(5, MINUTE, Duration.ofSeconds(10), List.of(Interval.unbounded(10))));
  }

  @Test
  void noRoundStartsThatWouldEndPastTheBudget() {
    StoppingRule rule = new StoppingRule(3, Duration.ofMinutes(5), 5, 0);
    assertEquals(CONTINUE, rule.decide(6, Duration.ofSeconds(270), Duration.ofSeconds(30), List.of(WIDE)));
    assertEquals(OUT_OF_TIME, rule.decide(6, Duration.ofSeconds(271), Duration.ofSeconds(30), List.of(WIDE)));
    // The budget is hard: it ends a run before the minimum rounds too.
    assertEquals(OUT_OF_TIME, rule.decide(2, Duration.ofSeconds(290), Duration.ofSeconds(30), List.of(WIDE)));
    assertEquals(List.of("b"), rule.unmet(List.of(overhead("a", NARROW), overhead("b", WIDE))).stream()
        .map(Overhead::variant).toList());
  }

  @Test
  void maximumAndFixedRounds() {
    assertEquals(ROUNDS_DONE, new StoppingRule(3, Duration.ofHours(1), 5, 8).decide(8, MINUTE, MINUTE,
        List.of(WIDE)));
    StoppingRule fixed = StoppingRule.fixed(3);
    assertEquals(CONTINUE, fixed.decide(2, Duration.ofDays(2), MINUTE, List.of(NARROW)));
    assertEquals(ROUNDS_DONE, fixed.decide(3, MINUTE, MINUTE, List.of(WIDE)));
    assertThrows(IllegalArgumentException.class, () -> new StoppingRule(0, MINUTE, 5, 0));
    assertThrows(IllegalArgumentException.class, () -> new StoppingRule(3, MINUTE, 5, 4));
  }

  @Test
  void describedInWordsAndRecordedUnderTheOptionsNames() {
    StoppingRule adaptive = new StoppingRule(3, Duration.ofSeconds(280), 5, 0);
    assertEquals("rounds until every CPU/entry interval is within +/-3.0 points (at least 5) or 280 s have passed",
        adaptive.describe("CPU/entry interval"));
    assertEquals(Map.of("rounds", 0, "precision", 3.0, "maxTimeSeconds", 280.0, "minRounds", 5, "maxRounds", 0),
        adaptive.settings());
    assertEquals("rounds until every interval is within +/-1.5 points (at least 4, at most 9) or 90.5 s have passed",
        new StoppingRule(1.5, Duration.ofMillis(90_500), 4, 9).describe("interval"));
    assertEquals("4 rounds", StoppingRule.fixed(4).describe("interval"));
    assertEquals(Map.of("rounds", 4), StoppingRule.fixed(4).settings(), "a fixed run has no target or budget");
  }

  private static Overhead overhead(String variant, Interval interval) {
    return new Overhead("g", variant, "wall", new double[] {1.1, 1.1, 1.1}, interval);
  }
}
