package io.securethrift.benchstats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Per-round paired overheads: in every group, every variant's cost in round r is divided by the baseline's cost in
 * the same round r, so drift of the machine between rounds (which hits both alike when rounds are interleaved)
 * cancels. Rounds one side lacks are left out; warm-ups (round 0) are never used.
 */
public final class PairedAnalysis {
  private PairedAnalysis() {}

  /**
   * The overheads of every non-baseline variant of every group, in the order rows first name them.
   *
   * @param metric the metric's name, carried into the result
   * @param cost the cost of one row on that metric (lower is better), for example time per entry
   * @param seed the bootstrap's seed
   */
  public static List<Overhead> overheads(List<Measurement> rows, String baseline, String metric,
      ToDoubleFunction<Measurement> cost, long seed) {
    Map<String, Map<String, Map<Integer, Double>>> byGroup = new LinkedHashMap<>();
    for (Measurement m : rows) {
      if (!m.warmUp()) {
        byGroup.computeIfAbsent(m.group(), g -> new LinkedHashMap<>())
            .computeIfAbsent(m.variant(), v -> new LinkedHashMap<>()).put(m.round(), cost.applyAsDouble(m));
      }
    }
    List<Overhead> result = new ArrayList<>();
    byGroup.forEach((group, variants) -> {
      Map<Integer, Double> base = variants.get(baseline);
      if (base == null) {
        throw new IllegalArgumentException("group " + group + " has no rows of the baseline " + baseline);
      }
      variants.forEach((variant, costs) -> {
        if (!variant.equals(baseline)) {
          double[] ratios = ratios(base, costs);
          result.add(new Overhead(group, variant, metric, ratios,
              ratios.length == 0 ? Interval.unbounded(Double.NaN) : Bootstrap.overhead(ratios, seed)));
        }
      });
    });
    return result;
  }

  /** variant / baseline for every round both have, in round order. */
  public static double[] ratios(Map<Integer, Double> baseline, Map<Integer, Double> variant) {
    Set<Integer> rounds = new LinkedHashSet<>(variant.keySet());
    rounds.retainAll(baseline.keySet());
    return rounds.stream().sorted().mapToDouble(r -> variant.get(r) / Objects.requireNonNull(baseline.get(r)))
        .toArray();
  }
}
