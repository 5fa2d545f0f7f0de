package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Repeated runs judged as the benchmarks' issues judge them: close estimates, each covered by every interval. */
class AgreementTest {
  private static final Map<String, Double> TOLERANCES = Map.of("cpu", 3.0, "wall", 5.0);

  @Test
  void closeRunsWhoseIntervalsCoverEachOtherAgree() {
    Agreement a = agreement(run(new Interval(20, 17, 23), new Interval(30, 25, 36)),
        run(new Interval(22, 19, 25), new Interval(34, 29, 39)),
        run(new Interval(21, 18, 24), new Interval(29, 24, 35)));
    assertTrue(a.agree());
    assertEquals(List.of(Agreement.Verdict.AGREE, Agreement.Verdict.AGREE),
        a.rows().stream().map(Agreement.Row::verdict).toList());
    assertEquals(2.0, a.rows().get(0).spread(), 1e-9);
    String md = a.markdown();
    assertTrue(md.contains("| tls | jsse | cpu | +20.0 % [+17.0, +23.0] | +22.0 % [+19.0, +25.0]"
        + " | +21.0 % [+18.0, +24.0] | 2.0 | agree |"), md);
    assertTrue(md.contains("Tolerances: cpu ±3 points, wall ±5 points. Every judged row agrees."), md);
    assertTrue(md.contains("all of a row's 3 intervals would cover the other runs' estimates in 65 % of rows"), md);
    assertTrue(md.contains("- cpu: 1 of 1 rows covered (honest intervals: 0.7 expected, all 1 with probability 65"
        + " %); Q/df "), md);
    assertTrue(md.startsWith("- Run 1 (`run-1.json`): commit abc123, started 2026-01-01T00:00:00Z, load average"
        + " 0.5 → 0.7, 100.0 s, stopped PRECISE"), md);
  }

  @Test
  void eachWayOfDisagreeingIsNamed() {
    // cpu: 7 points apart, more than twice the tolerance; wall: close, but run 2's narrow interval misses run 1's,
    // which only a judge of coverage holds against them.
    ResultsFile[] runs = {run(new Interval(20, 17, 23), new Interval(30, 26, 34)),
        run(new Interval(27, 24, 30), new Interval(33, 32.5, 33.5))};
    Agreement a = agreement(runs);
    assertFalse(a.agree());
    assertEquals(List.of(Agreement.Verdict.TOO_FAR_APART, Agreement.Verdict.NOT_COVERED),
        a.rows().stream().map(Agreement.Row::verdict).toList());
    assertTrue(a.markdown().contains("Not agreeing: tls jsse cpu (estimates too far apart), tls jsse wall (an interval"
        + " misses another run's estimate)."), a.markdown());

    Agreement tolerancesAlone = new Agreement(List.of(runs), List.of("run-1.json", "run-2.json"), TOLERANCES, false);
    assertEquals(List.of(Agreement.Verdict.TOO_FAR_APART, Agreement.Verdict.AGREE),
        tolerancesAlone.rows().stream().map(Agreement.Row::verdict).toList());
    assertTrue(tolerancesAlone.markdown().contains("Not agreeing: tls jsse cpu (estimates too far apart).")
        && tolerancesAlone.markdown().contains("agrees whether or not its intervals cover each other's estimates")
        && tolerancesAlone.markdown().contains("- wall: 0 of 1 rows covered"), tolerancesAlone.markdown());

    Agreement unbounded = agreement(run(Interval.unbounded(20), new Interval(30, 26, 34)),
        run(new Interval(20, 17, 23)));
    assertEquals(List.of(Agreement.Verdict.NO_INTERVAL, Agreement.Verdict.MISSING),
        unbounded.rows().stream().map(Agreement.Row::verdict).toList());
    assertFalse(unbounded.agree());
  }

  @Test
  void metricsWithoutToleranceAreShownNotJudged() {
    Agreement a = new Agreement(List.of(run(new Interval(5, 1, 9)), run(new Interval(50, 45, 55))),
        List.of("a.json", "b.json"), Map.of("wall", 5.0), true);
    assertEquals(Agreement.Verdict.NOT_JUDGED, a.rows().get(0).verdict());
    assertTrue(a.agree());
    assertThrows(IllegalArgumentException.class, () -> new Agreement(List.of(), List.of(), TOLERANCES, true));
    assertEquals(List.of("run-1/results.json", "results.json"),
        Agreement.names(List.of(Path.of("/tmp/run-1/results.json"), Path.of("results.json"))));
  }

  @Test
  void docsSectionReplacesOnlyBetweenItsMarkers() {
    DocsSection section = DocsSection.of("bench");
    String doc = "# t\n\n" + section.begin() + "\nold\n" + section.end() + "\n\nafter\n";
    assertEquals("# t\n\n" + section.begin() + "\n\nnew\n\n" + section.end() + "\n\nafter\n",
        section.replace(doc, "new\n", "doc.md"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> section.replace("no markers", "new", "doc.md"));
    assertTrue(e.getMessage().startsWith("doc.md has no '<!-- bench results: written by 'bench docs'"), e.getMessage());
  }

  private static Agreement agreement(ResultsFile... runs) {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= runs.length; i++) {
      names.add("run-" + i + ".json");
    }
    return new Agreement(List.of(runs), names, TOLERANCES, true);
  }

  /** A run of variant "jsse" in group "tls" with a CPU and, when given, a wall overhead. */
  private static ResultsFile run(Interval cpu, Interval... wall) {
    List<Overhead> overheads = new ArrayList<>();
    overheads.add(new Overhead("tls", "jsse", "cpu", new double[0], cpu));
    for (Interval w : wall) {
      overheads.add(new Overhead("tls", "jsse", "wall", new double[0], w));
    }
    RunInfo info = new RunInfo("abc123", "test jdk", 2, 0.5, 0.7, Instant.parse("2026-01-01T00:00:00Z"),
        Duration.ofSeconds(100));
    return new ResultsFile("bench", info.toMap(), Map.of(), "group", "variant", "none", "PRECISE", 3.0, overheads,
        List.of(), List.of());
  }
}
