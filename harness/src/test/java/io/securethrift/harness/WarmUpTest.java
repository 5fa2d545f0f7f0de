package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Warm-up rounds: numbered up to 0, never analysed, shortened only when the budget could not hold them. */
class WarmUpTest {
  private static final StoppingRule FIVE_MINUTES = new StoppingRule(3, Duration.ofMinutes(5), 5, 0);

  /** A round of two rows whose run advances a simulated clock by {@code roundTime}. */
  private static WarmUp.Round round(List<Integer> ran, AtomicReference<Duration> clock, Duration roundTime) {
    return r -> {
      ran.add(r);
      clock.set(clock.get().plus(roundTime));
      return List.of(new Measurement("g", "none", r, Map.of("cost", 1.0)),
          new Measurement("g", "tls", r, Map.of("cost", 2.0)));
    };
  }

  @Test
  void warmUpRoundsEndAtRoundZeroAndAreNeverAnalysed() throws Exception {
    List<Integer> ran = new ArrayList<>();
    List<String> progress = new ArrayList<>();
    AtomicReference<Duration> clock = new AtomicReference<>(Duration.ZERO);
    List<Measurement> rows = WarmUp.run(3, round(ran, clock, Duration.ofSeconds(10)), FIVE_MINUTES, clock::get,
        progress::add);

    assertEquals(List.of(-2, -1, 0), ran);
    assertEquals(6, rows.size());
    assertTrue(rows.stream().allMatch(Measurement::warmUp), rows.toString());
    assertEquals(3, progress.size(), progress.toString());
    assertTrue(progress.get(0).startsWith("warm-up round -2 done in "), progress.toString());
    assertEquals("round 4", WarmUp.label(4));
    assertEquals(List.of(), PairedAnalysis.overheads(rows, "none", "cost", m -> m.value("cost"), 1),
        "no warm-up row is analysed");
    assertEquals(List.of(), WarmUp.run(0, round(ran, clock, Duration.ofSeconds(10)), FIVE_MINUTES, clock::get,
        progress::add), "no warm-up");
  }

  @Test
  void laterWarmUpRoundsAreLeftOutWhenTheBudgetCouldNotHoldThemAndAnInterval() throws Exception {
    List<Integer> ran = new ArrayList<>();
    List<String> progress = new ArrayList<>();
    // 150 s used before, rounds of 30 s: at 180 s a second warm-up round and the three measured ones an interval
    // needs end at 300 s, within the budget; at 210 s a third and its three would end at 330 s.
    AtomicReference<Duration> clock = new AtomicReference<>(Duration.ofSeconds(150));
    List<Measurement> rows = WarmUp.run(3, round(ran, clock, Duration.ofSeconds(30)), FIVE_MINUTES, clock::get,
        progress::add);

    assertEquals(List.of(-2, -1), ran, "numbered as asked, ending short of 0");
    assertEquals(4, rows.size());
    assertEquals("warm-up stopped after 2 of 3 rounds: another, and the 3 measured rounds an interval needs, would"
        + " pass the 300 s budget", progress.get(progress.size() - 1));

    List<Integer> fixed = new ArrayList<>();
    WarmUp.run(3, round(fixed, clock, Duration.ofSeconds(30)), StoppingRule.fixed(5), clock::get, progress::add);
    assertEquals(List.of(-2, -1, 0), fixed, "a fixed number of rounds has no budget");
  }

  @Test
  void theSecondRoundIsForecastAtAWarmPaceNotTheColdFirstRoundsOne() throws Exception {
    List<Integer> ran = new ArrayList<>();
    List<String> progress = new ArrayList<>();
    // As a default ingest-bench run: 20 s used before, a cold first round of 85 s, then rounds of 12 s. At 105 s the
    // first round's pace would forecast 105 + 4 x 85 = 445 s; a third of it, 105 + 4 x 28 = 218 s, fits the budget.
    AtomicReference<Duration> clock = new AtomicReference<>(Duration.ofSeconds(20));
    WarmUp.Round coldThenWarm = r -> {
      ran.add(r);
      clock.set(clock.get().plus(Duration.ofSeconds(ran.size() == 1 ? 85 : 12)));
      return List.of(new Measurement("g", "none", r, Map.of("cost", 1.0)));
    };
    WarmUp.run(3, coldThenWarm, new StoppingRule(3, Duration.ofSeconds(280), 5, 0), clock::get, progress::add);

    assertEquals(List.of(-2, -1, 0), ran, progress.toString());
    assertEquals(Duration.ofSeconds(129), clock.get());
  }
}
