package io.securethrift.bench.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.harness.Interval;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ResultsFile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * privacy-bench's table: a row per size and mode with its median rate and its speed over {@code none} and over GSS
 * auth-conf with their intervals, n/a where there is no ratio, and a stop line that says why in words.
 */
class PrivacyMarkdownTest {
  private static Map<String, Object> summary(String size, String mode, int rounds, double mbPerS, Interval vsNone,
      Interval vsGss) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("size", size);
    m.put("mode", mode);
    m.put("rounds", rounds);
    m.put("median_mb_per_s", mbPerS);
    m.put("vs_none", vsNone.estimate());
    m.put("vs_none_low", vsNone.low());
    m.put("vs_none_high", vsNone.high());
    m.put("vs_auth_conf", vsGss.estimate());
    m.put("vs_auth_conf_low", vsGss.low());
    m.put("vs_auth_conf_high", vsGss.high());
    return m;
  }

  private static ResultsFile results(String stopped, double precision, List<Overhead> overheads,
      List<Map<String, Object>> summary) {
    return new ResultsFile(PrivacyBench.TOOL, Map.of(), Map.of(), "size", "mode", "none", stopped, precision,
        overheads, summary, List.of());
  }

  @Test
  void eachRowHasItsRateAndBothRatiosWithTheirIntervals() {
    String table = PrivacyBench.markdown(results("PRECISE", 3.0, List.of(), List.of(
        summary("1KiB", "none", 5, 812.5, new Interval(1, 1, 1), new Interval(2.5, 2.25, 2.75)),
        summary("1KiB", "auth-conf-gcm", 5, 401.49, new Interval(0.494, 0.4812, 0.5071),
            new Interval(1.24, 1.2, 1.28)),
        summary("1MiB", "auth-conf-gcm", 2, 350, Interval.unbounded(0.6), Interval.unbounded(Double.NaN)))));
    assertEquals(List.of(
        "| size | mode | rounds | MB/s each way (median) | × none [95 %] | × auth-conf (gss) [95 %] |",
        "|---|---|---|---|---|---|",
        "| 1KiB | none | 5 | 813 | 1.00× [1.00, 1.00] | 2.50× [2.25, 2.75] |",
        "| 1KiB | auth-conf-gcm | 5 | 401 | 0.49× [0.48, 0.51] | 1.24× [1.20, 1.28] |",
        "| 1MiB | auth-conf-gcm | 2 | 350 | 0.60× [n/a] | n/a |",
        "",
        "Stopped: every interval within ±3.0 points of cost."), table.lines().toList());
  }

  @Test
  void aFixedNumberOfRoundsIsSaidSoNotAsAnInfinitePrecision() {
    String table = PrivacyBench.markdown(results("ROUNDS_DONE", Double.POSITIVE_INFINITY, List.of(), List.of()));
    assertEquals("Stopped: the fixed number of rounds was done.", table.lines().reduce((a, b) -> b).orElseThrow());
  }

  @Test
  void aRunOutOfTimeNamesTheIntervalsStillTooWide() {
    Overhead wide = new Overhead("64KiB", "auth-conf", "time", new double[] {1.1, 1.3, 1.2},
        new Interval(20, 12, 28));
    Overhead narrow = new Overhead("64KiB", "auth-conf-gcm", "time", new double[] {1.01, 1.02, 1.01},
        new Interval(1.5, 0.5, 2.5));
    String table = PrivacyBench.markdown(results("OUT_OF_TIME", 3.0, List.of(wide, narrow), List.of()));
    assertEquals("Stopped: the time budget was spent, not within +/-3.0 points: 64KiB auth-conf time (+/-8.0).",
        table.lines().reduce((a, b) -> b).orElseThrow());
  }
}
