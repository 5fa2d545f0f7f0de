package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ResultsFile;
import io.securethrift.core.ConfigException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command end to end with tiny sizes and one round: real cell JVMs, real TLS on Conscrypt (libthrift's through
 * the Conscrypt-first provider), real GSSAPI on an embedded KDC, for every pairing. It checks that every cell measured
 * every metric, that the files are written, and that {@code docs} writes two runs into a document.
 */
class PeerBenchTest {
  @TempDir
  Path dir;

  @Test
  void oneTinyRoundOfEveryKindOfModeWritesEveryRowAndTheDocsSection() throws Exception {
    Path out = dir.resolve("run");
    StringWriter printed = new StringWriter();
    CommandLine cli = new CommandLine(new PeerBenchCommand()).setOut(new PrintWriter(printed));
    int code = cli.execute("--modes", "plain,tls-conscrypt,auth-conf", "--bulk-sizes", "8192", "--small-sizes", "100",
        "--seconds", "0.05", "--turns", "2", "--warm-up", "0.05", "--warm-up-turns", "2", "--rounds", "1", "--output",
        out.toString());
    assertEquals(0, code, printed.toString());

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
    String table = printed.toString();
    assertTrue(table.contains("| sasl-auth-conf | round trips/s, 100 B messages |"), table);
    assertTrue(table.contains("| tls-conscrypt | new connections/s"), table);
    for (String file : List.of("peer-results.csv", "peer-iterations.csv", "peer-results.html")) {
      assertTrue(Files.size(out.resolve(file)) > 100, file);
    }
    assertEquals(3, Files.readString(out.resolve("peer-results.html")).split("<svg ", -1).length - 1,
        "a chart per metric");

    Path doc = dir.resolve("benchmarks.md");
    Files.writeString(doc, "# Benchmarks\n\n" + PeerBenchCommand.DocsCommand.SECTION.begin() + "\nold\n"
        + PeerBenchCommand.DocsCommand.SECTION.end() + "\n\nAfter.\n", StandardCharsets.UTF_8);
    Path copy = Files.createDirectories(dir.resolve("again")).resolve("peer-results.json");
    Files.copy(out.resolve("peer-results.json"), copy);
    assertEquals(0, cli.execute("docs", doc.toString(), out.resolve("peer-results.json").toString(),
        copy.toString()), printed.toString());
    String written = Files.readString(doc, StandardCharsets.UTF_8);
    assertTrue(written.contains("### Agreement of 2 runs") && written.contains("### The last run")
        && !written.contains("\nold\n") && written.endsWith("\n\nAfter.\n"), written);
  }

  @Test
  void optionsBecomeSettingsAndABadValueNamesItsOption() {
    PeerBenchCommand command = new PeerBenchCommand();
    new CommandLine(command).parseArgs("--no-connections", "--bulk-sizes", "65536", "--pairings", "our-client");
    PeerSettings settings = command.settings();
    assertEquals(List.of("bulk-64KiB", "rt-1KiB"),
        settings.metrics().stream().map(PeerMetric::name).collect(Collectors.toList()));
    assertEquals(List.of(Pairing.LIBTHRIFT, Pairing.OUR_CLIENT), settings.pairings(), "the baseline always runs");

    PeerBenchCommand bad = new PeerBenchCommand();
    new CommandLine(bad).parseArgs("--modes", "tls");
    ConfigException e = assertThrows(ConfigException.class, bad::settings);
    assertTrue(e.getMessage().contains("--modes")
        && e.getMessage().contains("'tls' is not a mode peer-bench runs; it runs none,"), e.getMessage());
    PeerBenchCommand defaults = new PeerBenchCommand();
    new CommandLine(defaults).parseArgs();
    // The warm-up may take 60 % of 1200 s, 720 s: after 30 s of start-up, 96 warm-ups left get 7 turns of 1 s each;
    // after 700 s, the last 5 get 4 each.
    PeerSettings defaultSettings = defaults.settings();
    assertEquals(7, PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 30, 96));
    assertEquals(4, PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 700, 5));
    assertEquals(1, PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 800, 5), "one turn even past the budget");
    assertEquals(defaultSettings.warmUpTurns(), PeerBenchmark.warmUpTurnsAllowed(defaultSettings, 30, 1),
        "never more than --warm-up-turns");
    PeerBenchCommand fixed = new PeerBenchCommand();
    new CommandLine(fixed).parseArgs("--rounds", "2");
    assertEquals(fixed.settings().warmUpTurns(), PeerBenchmark.warmUpTurnsAllowed(fixed.settings(), 1e6, 96),
        "a fixed number of rounds has no time budget");
    PeerBenchCommand noWarmUp = new PeerBenchCommand();
    new CommandLine(noWarmUp).parseArgs("--warm-up-turns", "0");
    e = assertThrows(ConfigException.class, noWarmUp::settings);
    assertTrue(e.getMessage().contains("--warm-up-turns"), e.getMessage());
    PeerBenchCommand noTurns = new PeerBenchCommand();
    new CommandLine(noTurns).parseArgs("--turns", "0");
    e = assertThrows(ConfigException.class, noTurns::settings);
    assertTrue(e.getMessage().contains("--turns") && e.getMessage().contains("0 is not a number of turns"),
        e.getMessage());
    assertEquals(6, defaults.settings().turns());
  }
}
