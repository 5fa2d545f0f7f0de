package io.securethrift.zkbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Compare;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.StoppingRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zk-bench end to end on a tiny workload: real ensembles (one standalone server for client-tls, three servers with
 * quorum TLS and fsync for quorum-tls), real certificates, a client JVM per mode, Conscrypt, openssl and TLS 1.3
 * included.
 * Timings are not asserted (that is the benchmark's job); that every shape and mode ran, was sampled on both sides
 * and reported with intervals, beside the published figure, is, and that compare and docs read what the run wrote.
 */
class ZkBenchmarkTest {
  @TempDir
  Path output;

  private static int indexOf(List<Measurement> rows, String variant, int round) {
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).group().equals("client-tls") && rows.get(i).variant().equals(variant)
          && rows.get(i).round() == round) {
        return i;
      }
    }
    throw new AssertionError("no client-tls row of " + variant + " in round " + round);
  }

  @Test
  void quickRunReportsEveryShapeAndModeWithIntervals() throws Exception {
    ZkSettings settings = ZkSettings.of(List.of("client-tls", "quorum-tls"), List.of("none", "tls13-jsse",
        "tls12-conscrypt", "tls13-openssl"), 40, 10, 2, 2, StoppingRule.fixed(3), 1, output);
    String printed = ZkReport.markdown(new ZkBenchmark(settings, System.err).run().results());

    ResultsFile r = ResultsFile.fromJson(Files.readString(output.resolve("zk-results.json")));
    assertEquals("zk-bench", r.tool());
    assertEquals("ROUNDS_DONE", r.stopped());
    // client-tls runs all four modes; quorum-tls has no Conscrypt or openssl mode (quorum TLS is JSSE whatever the
    // engine).
    List<String> targets = List.of("client-tls none", "client-tls tls13-jsse", "client-tls tls12-conscrypt",
        "client-tls tls13-openssl", "quorum-tls none", "quorum-tls tls13-jsse");
    assertEquals(targets, r.summary().stream().map(m -> m.get("shape") + " " + m.get("mode")).toList());
    assertEquals((targets.size() + 3) * 4 + 2, r.rows().size(), "a warm-up and three rounds per target, as many of"
        + " the baseline in client-tls's three TLS modes' own processes, and the warm-up of quorum-tls's second"
        + " ensembles");
    // quorum-tls's two ensembles per mode warm up together and take the measured rounds two at a time; client-tls's
    // modes, which take turns with their baseline in their own processes, run one.
    Map<String, Map<Integer, Set<Integer>>> forksOfRound = new TreeMap<>();
    for (Measurement m : r.rows()) {
      forksOfRound.computeIfAbsent(m.group(), g -> new TreeMap<>()).computeIfAbsent(m.round(), k -> new TreeSet<>())
          .add((int) m.value(ZkRow.FORK));
    }
    assertEquals(Map.of(0, Set.of(0, 1), 1, Set.of(0), 2, Set.of(0), 3, Set.of(1)), forksOfRound.get("quorum-tls"));
    assertEquals(Map.of(0, Set.of(0), 1, Set.of(0), 2, Set.of(0), 3, Set.of(0)), forksOfRound.get("client-tls"));
    for (String mode : List.of("tls13-jsse", "tls12-conscrypt", "tls13-openssl")) {
      for (int round = 1; round <= 3; round++) {
        int secured = indexOf(r.rows(), mode, round);
        // Over the plain port of the same servers, from the same client JVM, taking turns with the TLS iteration.
        assertEquals(round % 2 == 1 ? secured - 1 : secured + 1, indexOf(r.rows(), mode + "/none", round),
            mode + " round " + round);
      }
    }
    for (Measurement m : r.rows()) {
      String what = m.group() + " " + m.variant() + " round " + m.round() + ": " + m.values();
      assertEquals(440, m.value(ZkRow.OPS), what);
      assertEquals(40, m.value(ZkRow.SYNC_OPS), what);
      boolean ownBaseline = m.variant().endsWith("/none");
      assertTrue(m.value(ZkRow.WALL_MS) > 0 && m.value(ZkRow.SYNC_MS) > 0, what);
      assertEquals(!ownBaseline, m.value(ZkRow.SESSION_MS) > 0, what);
      // The OS counts CPU in 10 ms ticks: a tiny iteration may show none on one side.
      assertTrue(m.value("client_cpu_ms") >= 0 && m.value("server_cpu_ms") >= 0, what);
      assertTrue(m.value("client_gc_ms") >= 0 && m.value("server_gc_ms") >= 0, what);
      assertTrue(m.value("sync_get_p99_us") >= m.value("sync_get_p50_us"), what);
      // The resumption probe runs where the client speaks TLS: client-tls's TLS modes, not quorum-tls's clients.
      boolean clientTls = m.group().equals("client-tls") && !m.variant().equals("none") && !ownBaseline;
      assertEquals(clientTls, m.value(ZkRow.HANDSHAKE_FIRST_MS) > 0, what);
      assertEquals(clientTls, m.value(ZkRow.HANDSHAKE_LATER_MS) > 0, what);
      assertTrue(clientTls ? m.value(ZkRow.HANDSHAKES_RESUMED) >= 0 && m.value(ZkRow.HANDSHAKES_RESUMED) <= 1
          : Double.isNaN(m.value(ZkRow.HANDSHAKES_RESUMED)), what);
    }
    for (String target : targets) {
      double cpu = r.rows().stream().filter(m -> !m.warmUp() && (m.group() + " " + m.variant()).equals(target))
          .mapToDouble(m -> m.value("client_cpu_ms") + m.value("server_cpu_ms")).sum();
      assertTrue(cpu > 0, target + " used no CPU in three rounds");
    }
    assertEquals(4 * 3, r.overheads().size(), "wall, CPU and sync for each of the four TLS targets");
    for (Overhead o : r.overheads()) {
      // A CPU round whose iteration used less than the OS's 10 ms tick once its JIT share is taken out has no ratio.
      boolean cpu = o.metric().equals(ZkBenchmark.CPU);
      assertTrue(cpu ? o.rounds() >= 1 && o.rounds() <= 3 : o.rounds() == 3, o.toString());
      assertTrue(o.rounds() < 3 || o.interval().bounded() && o.interval().low() <= o.interval().estimate()
          && o.interval().estimate() <= o.interval().high() && o.interval().estimate() > -100, o.toString());
    }

    assertTrue(printed.contains("| quorum-tls | tls13-jsse | 3 |"), printed);
    assertTrue(printed.contains("Published reference") && printed.contains("+1.7 %"), printed);
    assertTrue(printed.contains("| new session ms | first handshake ms | later handshake ms | resumed |"), printed);
    String html = Files.readString(output.resolve("zk-results.html"));
    assertEquals(2, count(html, "class=\"reference\""), "the published mark beside quorum-tls tls13-jsse on the wall"
        + " and sync charts");
    assertTrue(count(html, "class=\"error-bar\"") == 12, html);
    assertEquals(r.rows().size() + 1, Files.readAllLines(output.resolve("zk-iterations.csv")).size());

    Path json = output.resolve("zk-results.json").toAbsolutePath();
    ResultsFile run = ResultsFile.read(json, ZkReport.TOOL);
    String compared = Compare.table(run, run, json.toString(), json.toString());
    assertTrue(compared.contains("quorum-tls   tls13-jsse"), compared);
    assertTrue(compared.contains("within noise"), compared);

    Path doc = output.resolve("doc.md");
    Files.writeString(doc, "# title\n\n" + ZkReport.DOCS.section().begin() + "\nold\n" + ZkReport.DOCS.section().end()
        + "\n\nafter\n");
    ZkReport.DOCS.write(doc, List.of(json));
    String updated = Files.readString(doc);
    assertTrue(updated.contains("| client-tls | tls12-conscrypt | 3 |")
        && updated.contains("| client-tls | tls13-openssl | 3 |") && !updated.contains("\nold\n")
        && updated.endsWith("\n\nafter\n"), updated);
    for (Map<String, Object> m : r.summary()) {
      assertTrue(((Number) m.get("client_cpu_us_per_op")).doubleValue() >= 0, m.toString());
    }
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
