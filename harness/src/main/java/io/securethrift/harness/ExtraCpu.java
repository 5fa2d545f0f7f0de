package io.securethrift.harness;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * What a TLS mode's process spends per megabyte of payload beyond its plaintext baseline, beside the floor its engine's
 * records put under that: the CPU the engine needs to seal and open the megabyte in full records ({@link RecordCost}).
 * The ratio says how far above the floor the mode runs; what is above it goes to copies, small records and the
 * transport around the engine.
 *
 * <p>The extra is paired by round: in each round both measured, the mode's CPU per MB less the baseline's, and the
 * median of those differences. Rounds are the unit a benchmark alternates its variants in, so a difference taken
 * within one round leaves out what the machine did between rounds.
 *
 * @param extraUsPerMb CPU microseconds per MB of payload beyond the baseline's; NaN when not measured
 * @param floorUsPerMb the engine's record cost for the same megabyte; NaN when not measured
 */
public record ExtraCpu(double extraUsPerMb, double floorUsPerMb) {
  /** How many times the floor the extra is; NaN when either is missing. */
  public double ratio() {
    return extraUsPerMb / floorUsPerMb;
  }

  /**
   * The median, over the rounds both have, of the mode's value less the baseline's; NaN when they share none.
   *
   * @param mode a value per round, for example CPU microseconds per MB
   * @param baseline the baseline's values per round
   */
  public static double medianExtra(Map<Integer, Double> mode, Map<Integer, Double> baseline) {
    return Measurement.median(mode.keySet().stream().filter(baseline::containsKey).sorted()
        .mapToDouble(round -> mode.get(round) - baseline.get(round)).toArray());
  }

  /**
   * {@code value} of the measured (not warm-up) rows that {@code which} picks, by round; a value that is not finite
   * (a row without the column, or no payload) is left out.
   */
  public static Map<Integer, Double> byRound(List<Measurement> rows, Predicate<Measurement> which,
      ToDoubleFunction<Measurement> value) {
    Map<Integer, Double> byRound = new HashMap<>();
    rows.stream().filter(r -> !r.warmUp() && which.test(r))
        .forEach(r -> byRound.put(r.round(), value.applyAsDouble(r)));
    byRound.values().removeIf(v -> !Double.isFinite(v));
    return byRound;
  }
}
