package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.StoppingRule;
import io.securethrift.core.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark end to end with tiny sizes and one round: real cell JVMs, real TLS on Conscrypt (libthrift's through
 * the Conscrypt-first provider), real GSSAPI on an embedded KDC, for every pairing. It checks that every cell measured
 * every metric, that the files are written, and that {@code docs} writes two runs into a document.
 */
class PeerBenchTest {
  @TempDir
  Path dir;

  @Test
  void oneTinyRoundOfEveryKindOfModeWritesEveryRowAndTheDocsSection() throws Exception {
    Path out = dir.resolve("run");
    PeerSettings settings = PeerSettings.of(List.of("plain", "tls-conscrypt", "auth-conf"), PeerSettings.PAIRINGS,
        List.of(8192), List.of(100), true, 0.05, 2, 0.05, 2, StoppingRule.fixed(1), out);
    String table = PeerReport.markdown(new PeerBenchmark(settings, System.err).run().results());

    ResultsFile results = ResultsFile.read(out.resolve("peer-results.json"), PeerReport.TOOL);
    // 3 modes x 3 pairings against libthrift x 3 metrics (bulk, round trips, connections).
    assertEquals(27, results.overheads().size(), results.overheads().toString());
    for (Overhead o : results.overheads()) {
      assertEquals(1, o.rounds(), o.toString());
      assertTrue(o.ratios()[0] > 0 && Double.isFinite(o.ratios()[0]), o.toString());
    }
    // Two warm-up rows (the turns, round 0) and a measured row per cell: 3 modes x 4 pairings x 3.
    assertEquals(36, results.rows().size());
    assertEquals(List.of(-1, 0, 1), results.rows().stream().map(Measurement::round).distinct().sorted()
        .collect(Collectors.toList()));
    for (Measurement row : results.rows()) {
      for (String metric : List.of("bulk-8KiB", "rt-100B", "connect")) {
        assertTrue(row.value(metric + "_jit_ms") >= 0, "the JIT's time is recorded: " + row);
      }
    }
    for (Map<String, Object> m : results.summary()) {
      assertTrue((double) m.get("median_rate") > 0, m.toString());
    }
    assertTrue(table.contains("| sasl-auth-conf | round trips/s, 100 B messages |"), table);
    assertTrue(table.contains("| tls-conscrypt | new connections/s"), table);
    for (String file : List.of("peer-results.csv", "peer-iterations.csv", "peer-results.html")) {
      assertTrue(Files.size(out.resolve(file)) > 100, file);
    }
    assertEquals(3, Files.readString(out.resolve("peer-results.html")).split("<svg ", -1).length - 1,
        "a chart per metric");

    Path doc = dir.resolve("benchmarks.md");
    Files.writeString(doc, "# Benchmarks\n\n" + PeerReport.DOCS.section().begin() + "\nold\n"
        + PeerReport.DOCS.section().end() + "\n\nAfter.\n", StandardCharsets.UTF_8);
    Path copy = Files.createDirectories(dir.resolve("again")).resolve("peer-results.json");
    Files.copy(out.resolve("peer-results.json"), copy);
    PeerReport.DOCS.write(doc, List.of(out.resolve("peer-results.json"), copy));
    String written = Files.readString(doc, StandardCharsets.UTF_8);
    assertTrue(written.contains("### Agreement of 2 runs") && written.contains("### The last run")
        && !written.contains("\nold\n") && written.endsWith("\n\nAfter.\n"), written);
  }

  @Test
  void givenValuesBecomeSettingsAndABadValueNamesItsOption() {
    PeerSettings settings = settings(PeerSettings.MODES, List.of("our-client"), List.of(65536), false, 6, 30,
        PeerSettings.DEFAULT_STOPPING);
    assertEquals(List.of("bulk-64KiB", "rt-1KiB"),
        settings.metrics().stream().map(PeerMetric::name).collect(Collectors.toList()));
    assertEquals(List.of(Pairing.LIBTHRIFT, Pairing.OUR_CLIENT), settings.pairings(), "the baseline always runs");

    ConfigException e = assertThrows(ConfigException.class, () -> settings(List.of("tls"), PeerSettings.PAIRINGS,
        List.of(65536), true, 6, 30, PeerSettings.DEFAULT_STOPPING));
    assertTrue(e.getMessage().contains("--modes")
        && e.getMessage().contains("'tls' is not a mode peer-bench runs; it runs none,"), e.getMessage());
    // The command's defaults: 1 s warm-up turns, at most 30, within 1200 s.
    PeerSettings defaultSettings = settings(PeerSettings.MODES, PeerSettings.PAIRINGS, List.of(1 << 20, 64 << 10),
        true, 6, 30, PeerSettings.DEFAULT_STOPPING);
    // The warm-up may take 60 % of 1200 s, 720 s: after 30 s of start-up, 96 warm-ups left get 7 turns of 1 s each;
    // after 700 s, the last 5 get 4 each.
    assertEquals(7, PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 30, 96));
    assertEquals(4, PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 700, 5));
    assertEquals(1, PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 800, 5), "one turn even past the budget");
    assertEquals(defaultSettings.warmUpTurns(), PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 30, 1),
        "never more than --warm-up-turns");
    PeerSettings fixed = settings(PeerSettings.MODES, PeerSettings.PAIRINGS, List.of(65536), true, 6, 30,
        StoppingRule.fixed(2));
    assertEquals(fixed.warmUpTurns(), PeerBenchmark.warmUpTurnsAllowed(fixed, 1e6, 96),
        "a fixed number of rounds has no time budget");
    e = assertThrows(ConfigException.class, () -> settings(PeerSettings.MODES, PeerSettings.PAIRINGS, List.of(65536),
        true, 6, 0, PeerSettings.DEFAULT_STOPPING));
    assertTrue(e.getMessage().contains("--warm-up-turns"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings(PeerSettings.MODES, PeerSettings.PAIRINGS, List.of(65536),
        true, 0, 30, PeerSettings.DEFAULT_STOPPING));
    assertTrue(e.getMessage().contains("--turns") && e.getMessage().contains("0 is not a number of turns"),
        e.getMessage());
  }

  /** Settings with 1 KiB round trips, 0.3 s per metric and 1 s warm-up turns, as the command's defaults are. */
  private static PeerSettings settings(List<String> modes, List<String> pairings, List<Integer> bulkSizes,
      boolean connections, int turns, int warmUpTurns, StoppingRule rule) {
    return PeerSettings.of(modes, pairings, bulkSizes, List.of(1024), connections, 0.3, turns, 1.0, warmUpTurns, rule,
        Path.of("peer-results"));
  }
}
