package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Compare;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.StoppingRule;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole harness on a small workload: real KDC and CA in this JVM, a server and a client JVM per mode and server
 * model, verify after every iteration. Timings are not asserted (that is the benchmark's job); that every mode ran,
 * was sampled, verified and reported with intervals is, and that {@code compare} and {@code docs} read what the run
 * wrote.
 */
class IngestBenchmarkTest {
  @TempDir
  Path output;

  /**
   * An adaptive run sized from its two warm-up rounds, stopped by a loose precision target after the minimum rounds;
   * each mode takes turns of 1,000 entries with its own baseline, and runs in two JVM pairs that take the measured
   * rounds in turn.
   */
  @Test
  void everyModeIsSampledVerifiedAndReportedWithIntervals() throws Exception {
    List<String> modes = List.of("none", "tls-jsse", "sasl-auth-conf");
    // Any interval meets this target: the run stops at the minimum rounds, the first with intervals.
    BenchSettings settings = BenchSettings.builder().modes(modes)
        .stoppingRule(new StoppingRule(1e9, Duration.ofMinutes(5), 3, 0)).warmupRounds(2).entries(0)
        .iterationTime(Duration.ofMillis(100)).warmupEntries(5_000)
        .flushInterval(500).batchMemory(64 * 1024).maxLatency(Duration.ofSeconds(10)).writeThreads(2).seed(3)
        .turnEntries(1_000).forks(2).writeAheadLog(true).output(output).build();
    String report = new IngestBenchmark(settings).run();

    ResultsFile results = ResultsFile.fromJson(Files.readString(output.resolve("ingest-results.json")));
    List<Measurement> measured = results.rows().stream().filter(m -> !m.warmUp()).toList();
    // Three rounds, or one more for each CPU round below the OS's 10 ms tick (left out, so no interval yet).
    int rounds = measured.stream().mapToInt(Measurement::round).max().orElseThrow();
    assertTrue(rounds >= 3 && report.contains("stopped: every CPU/entry interval within +/-1000000000.0 points after "
        + rounds + " rounds"), report);
    assertEquals((2 * modes.size() - 1) * rounds, measured.size(),
        "every round has every mode, and per secured mode the baseline in its own processes");
    for (String mode : modes.subList(1, modes.size())) {
      for (int round = 1; round <= 3; round++) {
        int r = round;
        int secured = indexOf(measured, mode, r);
        int baseline = indexOf(measured, mode + "/none", r);
        // The baseline runs right beside the mode, before it in odd rounds and after it in even ones.
        assertEquals(r % 2 == 1 ? secured - 1 : secured + 1, baseline, mode + " round " + r);
      }
    }
    List<Measurement> warmUps = results.rows().stream().filter(Measurement::warmUp).toList();
    int perRound = 2 * modes.size() - 1;
    assertTrue(warmUps.stream().allMatch(m -> m.round() >= -1), "two warm-up rounds, numbered -1 and 0");
    for (int fork = 0; fork < 2; fork++) {
      int f = fork;
      assertEquals(perRound, warmUps.stream().filter(m -> m.round() == -1 && m.value("fork") == f).count(),
          "every fork runs warm-up round -1");
    }
    for (Measurement m : measured) {
      assertEquals((m.round() - 1) / 2 % 2, (int) m.value("fork"), "the forks take the measured rounds in turn, two"
          + " at a time: " + m);
    }
    assertTrue(warmUps.stream().filter(m -> m.round() == 0).count() >= perRound, "warm-up round 0, and sizing rounds"
        + " (also numbered 0) if the warm-up's rate was far too low");
    for (String mode : modes.subList(1, modes.size())) {
      // Warm-ups alternate the baseline's side as measured rounds do: round -1 is odd, round 0 even.
      assertEquals(indexOf(warmUps, mode, -1) - 1, indexOf(warmUps, mode + "/none", -1), mode);
      assertEquals(indexOf(warmUps, mode, 0) + 1, indexOf(warmUps, mode + "/none", 0), mode);
    }
    for (Measurement m : results.rows()) {
      String what = m.variant() + " round " + m.round() + ": " + m.values();
      // The OS counts CPU in 10 ms ticks: a tiny iteration may show none on one side, a mode's sum may not.
      assertTrue(m.value("server_cpu_ms") >= 0 && m.value("client_cpu_ms") >= 0, what);
      assertTrue(m.value("client_gc_count") >= 0, what);
      // A server's garbage collection is known to its JVM alone, which is not asked between turns: known for the
      // baseline's own target, which takes no turns, and not for the sides of a turn.
      assertTrue(m.variant().equals("none") ? m.value("server_gc_ms") >= 0 : Double.isNaN(m.value("server_gc_ms")),
          what);
      // Whatever the mode's framing and crypto add, at least the entries' bytes crossed the loopback.
      assertTrue(m.value("client_written_bytes") >= m.value("payload_bytes"), what);
      assertTrue(m.value("server_read_bytes") >= m.value("payload_bytes"), what);
      assertTrue(m.value("referenced") + m.value("unreferenced") > 0 && m.value("undefined") == 0
          && m.value("corrupt") == 0, what);
    }
    for (String mode : modes) {
      for (String side : List.of("client_cpu_ms", "server_cpu_ms")) {
        assertTrue(results.rows().stream().filter(m -> m.variant().equals(mode)).mapToDouble(m -> m.value(side))
            .sum() > 0, mode + " " + side);
      }
    }
    long measuredEntries = (long) results.rows().stream().filter(m -> !m.warmUp()).mapToDouble(m -> m.value(
        "entries")).min().orElseThrow();
    assertTrue(results.rows().stream().filter(m -> !m.warmUp()).allMatch(m -> m.value("entries") == measuredEntries),
        "every measured iteration writes the same entries");
    assertEquals(2 * (modes.size() - 1), results.overheads().size(), "wall and CPU overhead of each secured mode");
    for (Overhead o : results.overheads()) {
      // A CPU round whose iteration used less than the OS's 10 ms tick once its JIT share is taken out has no ratio.
      boolean cpu = o.metric().equals(IngestBenchmark.CPU);
      assertTrue(cpu ? o.rounds() >= 3 && o.rounds() <= rounds : o.rounds() == rounds, o.toString());
      assertTrue(o.interval().bounded() && o.interval().low() <= o.interval().estimate()
          && o.interval().estimate() <= o.interval().high(), o.variant() + " " + o.interval());
    }
    List<String> csv = Files.readAllLines(output.resolve("ingest-results.csv"));
    assertEquals(1 + modes.size(), csv.size(), report);
    assertTrue(Files.readString(output.resolve("ingest-results.html")).contains("class=\"error-bar\""));

    // compare reads two result files; a run against itself differs by nothing real.
    Path json = output.resolve("ingest-results.json");
    Path copy = Files.copy(json, output.resolve("again.json"));
    String compared = Compare.table(ResultsFile.read(json, ResultsTable.TOOL), ResultsFile.read(copy,
        ResultsTable.TOOL), json.toString(), copy.toString());
    for (String mode : modes.subList(1, modes.size())) {
      String line = compared.lines().filter(l -> l.contains(" " + mode + " ") && l.contains(" wall "))
          .findFirst().orElseThrow(() -> new AssertionError(compared));
      assertTrue(line.contains(" +0.0 [") && line.endsWith("within noise"), compared);
    }

    // docs writes the runs' agreement and the last run's table between the markers, and nothing else.
    Path doc = output.resolve("doc.md");
    Files.writeString(doc, "# title\n\n<!-- ingest-bench results: written by 'ingest-bench docs', do not edit by hand"
        + " -->\nold\n<!-- end of ingest-bench results -->\n\nafter\n");
    ResultsTable.DOCS.write(doc, List.of(json, copy));
    String updated = Files.readString(doc);
    assertTrue(updated.startsWith("# title\n\n<!-- ingest-bench results") && updated.endsWith("-->\n\nafter\n")
        && !updated.contains("\nold\n"), updated);
    assertTrue(updated.contains("Every judged row agrees."), updated);
    for (String mode : modes.subList(1, modes.size())) {
      assertTrue(updated.contains("| threadpool | " + mode + " | cpu | "), updated);
      assertTrue(updated.contains("| threadpool | " + mode + " | " + rounds + " | "), updated);
    }
  }

  private static int indexOf(List<Measurement> rows, String variant, int round) {
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).variant().equals(variant) && rows.get(i).round() == round) {
        return i;
      }
    }
    throw new AssertionError("no row of " + variant + " in round " + round + ": " + rows);
  }

  /**
   * Both server models in one run, each mode reported per server model against its own baseline: plain; TLS with a
   * Kerberos handshake inside (netty-server's own tests cover the rest); and libthrift's own SASL transports in worker
   * JVMs started with nothing but the provider's security file, which the run verifies entry by entry and fails had
   * no connection settled on AES-GCM (see {@link BenchMode#aesGcm()}). On the nonblocking model only the provider
   * mode's client is libthrift's.
   */
  @Test
  void bothServerModelsRunEveryKindOfModeInOneRun() throws Exception {
    List<String> modes = List.of("none", "sasl-over-tls", "sasl-auth-conf-provider");
    BenchSettings settings = BenchSettings.builder().modes(modes)
        .servers(List.of(ServerModel.THREADPOOL, ServerModel.NONBLOCKING)).rounds(1).entries(6_000).warmupEntries(0)
        .turnEntries(2_000).forks(1).flushInterval(500).batchMemory(64 * 1024).maxLatency(Duration.ofSeconds(10))
        .writeThreads(2).seed(3).output(output).build();
    String report = new IngestBenchmark(settings).run();
    List<String> csv = Files.readAllLines(output.resolve("ingest-results.csv"));
    assertEquals(1 + 2 * modes.size(), csv.size(), report);
    for (String server : List.of("threadpool", "nonblocking")) {
      for (String mode : modes) {
        assertTrue(csv.stream().anyMatch(l -> l.startsWith(mode + "," + server + ",1,")), mode + " " + server + ": "
            + csv);
      }
    }
    assertTrue(report.contains("threadpool and nonblocking servers"), report);
  }
}
