package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The extra CPU per MB paired by round, and its ratio to the engine's floor, from made-up rows. */
class ExtraCpuTest {
  @Test
  void theExtraIsTheMedianOfTheRoundsDifferencesOverTheRoundsBothHave() {
    // Differences 300, 100, 200 in rounds 1-3; round 4 has no baseline and round 5 no mode.
    Map<Integer, Double> mode = Map.of(1, 1300.0, 2, 1100.0, 3, 1250.0, 4, 9999.0);
    Map<Integer, Double> baseline = Map.of(1, 1000.0, 2, 1000.0, 3, 1050.0, 5, 1.0);
    assertEquals(200, ExtraCpu.medianExtra(mode, baseline), 1e-12);
    assertTrue(Double.isNaN(ExtraCpu.medianExtra(Map.of(1, 1.0), Map.of(2, 1.0))), "no round in common");
  }

  @Test
  void byRoundTakesThePickedMeasuredRowsWithFiniteValues() {
    List<Measurement> rows = List.of(row("a", 0, 5), row("a", 1, 10), row("b", 1, 20), row("a", 2, 0),
        row("a", 3, 30));
    // Round 0 is a warm-up; round 2's value, 10 / 0, is not a number of anything.
    assertEquals(Map.of(1, 1.0, 3, 1 / 3.0), ExtraCpu.byRound(rows, r -> r.variant().equals("a"),
        r -> 10 / r.value("ops")));
  }

  @Test
  void theRatioIsTheExtraOverTheFloorAndMissingWithoutEither() {
    assertEquals(2.5, new ExtraCpu(4500, 1800).ratio(), 1e-12);
    assertTrue(Double.isNaN(new ExtraCpu(Double.NaN, 1800).ratio()));
    assertTrue(Double.isNaN(new ExtraCpu(4500, Double.NaN).ratio()));
  }

  private static Measurement row(String variant, int round, double ops) {
    return new Measurement("g", variant, round, Map.of("ops", ops));
  }
}
