package io.securethrift.bench;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * Turns JMH results into a Markdown table of scores and ratios to a baseline mode measured in the same run. Absolute
 * numbers on a shared 2-core machine drift by tens of percent between runs; a ratio to the baseline measured minutes
 * earlier in the same JVM family is what can be compared and quoted.
 */
public final class RatioTable {
  private RatioTable() {}

  /**
   * One row per benchmark and parameter set: score, error, unit and score divided by the score of the same benchmark
   * and parameters with {@code modeParam} set to {@code baseline} (blank when the baseline did not run).
   */
  public static String markdown(Collection<RunResult> results, String modeParam, String baseline) {
    Map<String, Double> baselineScores = new HashMap<>();
    Map<String, RunResult> rows = new TreeMap<>();
    for (RunResult run : results) {
      BenchmarkParams params = run.getParams();
      String key = keyWithout(params, modeParam);
      if (baseline.equals(params.getParam(modeParam))) {
        baselineScores.put(key, run.getPrimaryResult().getScore());
      }
      rows.put(key + " " + params.getParam(modeParam), run);
    }
    StringBuilder table = new StringBuilder("| benchmark | params | " + modeParam
        + " | score | error | unit | ratio to " + baseline + " |\n|---|---|---|---|---|---|---|\n");
    for (RunResult run : rows.values()) {
      BenchmarkParams params = run.getParams();
      Result<?> result = run.getPrimaryResult();
      Double base = baselineScores.get(keyWithout(params, modeParam));
      table.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %s | %s |%n", shortName(params),
          otherParams(params, modeParam), params.getParam(modeParam), result.getScore(), result.getScoreError(),
          result.getScoreUnit(), base == null ? "" : String.format(Locale.ROOT, "%.2f", result.getScore() / base)));
    }
    return table.toString();
  }

  private static String keyWithout(BenchmarkParams params, String modeParam) {
    return params.getBenchmark() + " " + otherParams(params, modeParam);
  }

  private static String otherParams(BenchmarkParams params, String modeParam) {
    StringBuilder s = new StringBuilder();
    for (String name : params.getParamsKeys()) {
      if (!name.equals(modeParam)) {
        s.append(s.length() == 0 ? "" : ", ").append(name).append('=').append(params.getParam(name));
      }
    }
    return s.toString();
  }

  private static String shortName(BenchmarkParams params) {
    String name = params.getBenchmark();
    return name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
  }
}
