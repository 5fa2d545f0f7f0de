package io.securethrift.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Per-round paired overheads: in every group, every variant's cost in round r is divided by the baseline's cost in
 * the same round r, so drift of the machine between rounds (which hits both alike when rounds are interleaved)
 * cancels. Rounds one side lacks, or has not measured ({@link #ratios}), are left out; warm-ups (rounds 0 and below)
 * are never used.
 *
 * <p>Where a group also has rows of the baseline run in a variant's own processes (the variant named
 * {@link #ownBaseline}, for example {@code tls/none}), that variant is divided by those instead. Separate processes
 * (JVMs above all) differ by several percent for the same work, for as long as they live: how their JIT compiled the
 * code, how their collector sized the heap. Pairing by round cannot cancel that; pairing inside the same processes
 * does. What is left of it, the offset a variant's own processes (its fork, the rows' {@link Forks#COLUMN}) keep
 * against each other, widens the variant's interval ({@link ForkOffsets}).
 */
public final class PairedAnalysis {
  private static final String OWN = "/";

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
    Map<String, Map<String, Map<Integer, Measurement>>> byGroup = new LinkedHashMap<>();
    for (Measurement m : rows) {
      if (!m.warmUp()) {
        byGroup.computeIfAbsent(m.group(), g -> new LinkedHashMap<>())
            .computeIfAbsent(m.variant(), v -> new LinkedHashMap<>()).put(m.round(), m);
      }
    }
    List<Overhead> result = new ArrayList<>();
    byGroup.forEach((group, variants) -> {
      Map<String, Map<Integer, Double>> costs = new LinkedHashMap<>();
      variants.forEach((variant, byRound) -> {
        Map<Integer, Double> c = new LinkedHashMap<>();
        byRound.forEach((round, m) -> c.put(round, cost.applyAsDouble(m)));
        costs.put(variant, c);
      });
      Map<Integer, Double> base = costs.get(baseline);
      if (base == null) {
        throw new IllegalArgumentException("group " + group + " has no rows of the baseline " + baseline);
      }
      Map<String, double[]> ratios = new LinkedHashMap<>();
      Map<String, ForkOffsets.Rounds> forks = new LinkedHashMap<>();
      costs.forEach((variant, own) -> {
        if (!variant.equals(baseline) && !isOwnBaseline(variant, baseline)) {
          Map<Integer, Double> against = costs.getOrDefault(ownBaseline(variant, baseline), base);
          List<Integer> rounds = rounds(against, own);
          double[] r = rounds.stream().mapToDouble(k -> own.get(k) / against.get(k)).toArray();
          ratios.put(variant, r);
          forks.put(variant, new ForkOffsets.Rounds(Arrays.stream(r).map(Math::log).toArray(),
              rounds.stream().mapToInt(k -> fork(variants.get(variant).get(k))).toArray()));
        }
      });
      ForkOffsets.Estimate offsets = ForkOffsets.variance(List.copyOf(forks.values()));
      ratios.forEach((variant, r) -> {
        double widening = ForkOffsets.widening(forks.get(variant), offsets);
        result.add(new Overhead(group, variant, metric, r, widening,
            r.length == 0 ? Interval.unbounded(Double.NaN) : Bootstrap.overhead(r, seed, widening)));
      });
    });
    return result;
  }

  /** The fork that measured {@code m} (its {@link Forks#COLUMN}); 0 for rows of a benchmark without forks. */
  private static int fork(Measurement m) {
    double fork = m.value(Forks.COLUMN);
    return Double.isNaN(fork) ? 0 : (int) fork;
  }

  /**
   * Whether a variant's own baseline runs before the variant in {@code round} (odd rounds, warm-ups included) rather
   * than after it (even ones), so that a steady drift of the machine between the two cancels over the rounds.
   */
  public static boolean ownBaselineFirst(int round) {
    return Math.floorMod(round, 2) == 1;
  }

  /** The variant name of the baseline's rows measured in {@code variant}'s own processes. */
  public static String ownBaseline(String variant, String baseline) {
    return variant + OWN + baseline;
  }

  /** Whether {@code variant} names the baseline's rows in another variant's processes. */
  public static boolean isOwnBaseline(String variant, String baseline) {
    return variant.endsWith(OWN + baseline);
  }

  /**
   * variant / baseline for every round both have measured, in round order. A cost that is not positive and finite
   * was not measured: the operating system counts CPU in 10 ms ticks, and a short iteration's CPU less its JIT
   * compilers' share (two counts rounded apart) can come out at zero or below it. No ratio says anything of such a
   * round, so it is left out, and {@link Overhead#rounds()} shows how many remained.
   */
  public static double[] ratios(Map<Integer, Double> baseline, Map<Integer, Double> variant) {
    return rounds(baseline, variant).stream().mapToDouble(r -> variant.get(r) / baseline.get(r)).toArray();
  }

  /** The rounds {@link #ratios} uses, in order. */
  private static List<Integer> rounds(Map<Integer, Double> baseline, Map<Integer, Double> variant) {
    Set<Integer> rounds = new LinkedHashSet<>(variant.keySet());
    rounds.retainAll(baseline.keySet());
    rounds.removeIf(r -> !measured(variant.get(r)) || !measured(baseline.get(r)));
    return rounds.stream().sorted().collect(Collectors.toList());
  }

  /** Whether {@code cost} is a measurement: positive and finite. */
  public static boolean measured(double cost) {
    return cost > 0 && !Double.isInfinite(cost);
  }
}
