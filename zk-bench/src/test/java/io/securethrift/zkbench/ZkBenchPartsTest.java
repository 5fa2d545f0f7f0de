package io.securethrift.zkbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.Compare;
import io.securethrift.harness.DocsSection;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import io.securethrift.core.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** zk-bench's parsers, settings, report, compare and docs on made-up rows: no ZooKeeper started. */
class ZkBenchPartsTest {
  @TempDir
  Path dir;

  @Test
  void gcLogSumsPauseLinesOnly() {
    String log = "[0.010s][info][gc] Using G1\n"
        + "[0.512s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->5M(256M) 3.456ms\n"
        + "[0.900s][info][gc] GC(1) Concurrent Mark Cycle 12.000ms\n"
        + "[1.200s][info][gc] GC(2) Pause Remark 20M->20M(256M) 1.600ms\n"
        + "[2.000s][info][gc] GC(3) Pause Full (System.gc()) 30M->4M(256M) 10.044ms\n";
    assertArrayEquals(new long[] {3, 15}, GcLog.totalsOf(log));
    assertArrayEquals(new long[] {0, 0}, GcLog.totals(dir.resolve("gc-1.log")), "no log yet: nothing collected");
    assertTrue(GcLog.option(dir).endsWith("gc-%p.log") && GcLog.option(dir).startsWith("-Xlog:gc:file="));
  }

  @Test
  void quantileIsNearestRank() {
    long[] v = new long[100];
    for (int i = 0; i < 100; i++) {
      v[i] = 100 - i;
    }
    assertEquals(50, Workload.quantile(v, 0.50));
    assertEquals(99, Workload.quantile(v, 0.99));
    assertEquals(7, Workload.quantile(new long[] {7}, 0.99));
  }

  @Test
  void settingsRefuseWhatCannotRun() {
    List<String> shapes = ZkSettings.DEFAULT_SHAPES;
    List<String> modes = ZkSettings.MODES;
    List<String> quorum = List.of("quorum-tls");
    int forks = ZkSettings.DEFAULT_FORKS;
    ConfigException e = assertThrows(ConfigException.class, () -> settings(quorum, List.of("none",
        "tls12-conscrypt"), forks));
    assertTrue(e.getMessage().contains("--modes") && e.getMessage().contains("quorum-tls"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings(quorum, List.of("none", "tls13-openssl"), forks));
    assertTrue(e.getMessage().contains("--modes") && e.getMessage().contains("quorum-tls"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings(List.of("client"), modes, forks));
    assertTrue(e.getMessage().contains("--shapes") && e.getMessage().contains("client-tls, quorum-tls, both"),
        e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings(shapes, List.of("tls13-jsse"), forks));
    assertTrue(e.getMessage().contains("none"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings(shapes, List.of("none", "tls13-conscrypt"), forks));
    assertTrue(e.getMessage().contains("tls12-conscrypt"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> settings(shapes, modes, 0));
    assertTrue(e.getMessage().contains("--forks") && e.getMessage().contains("outside 1 to 4"), e.getMessage());
    assertThrows(ConfigException.class, () -> settings(shapes, modes, 5));
    ZkSettings defaults = settings(shapes, modes, forks);
    assertEquals(2, defaults.forks(Shape.QUORUM_TLS), "two ensembles per mode where the baseline is another one");
    assertEquals(1, defaults.forks(Shape.CLIENT_TLS), "one where the baseline shares the mode's processes");
    assertEquals(List.of(Shape.CLIENT_TLS, Shape.QUORUM_TLS), defaults.shapes());
    assertEquals(ZkModes.JSSE,
        defaults.modes(Shape.QUORUM_TLS), "no Conscrypt or openssl mode where quorum TLS is JSSE whatever the engine");
    assertEquals(6, defaults.modes(Shape.CLIENT_TLS).size());
  }

  /** Settings of these shapes, modes and forks, and otherwise the command's defaults. */
  private static ZkSettings settings(List<String> shapes, List<String> modes, int forks) {
    return ZkSettings.of(shapes, modes, ZkSettings.DEFAULT_ZNODES, 100, 3, forks, ZkSettings.DEFAULT_STOPPING,
        ZkSettings.DEFAULT_WARMUP_ROUNDS, Path.of("zk-results"));
  }

  @Test
  void reportCarriesIntervalsAndThePublishedMarkAndDocsReplaceOnlyTheirSection() throws Exception {
    ZkReport report = report();
    String md = ZkReport.markdown(ResultsFile.fromJson(report.results().toJson()));
    assertTrue(md.contains("| quorum-tls | tls12-jsse | 5 |"), md);
    assertTrue(md.contains("Published reference") && md.contains("+1.7 %"), md);
    assertTrue(md.contains("| quorum-tls | none | 5 |") && md.contains("baseline"), md);
    String html = report.html();
    // The mark on the wall and sync charts of the quorum-tls mode, never on client-tls or on CPU.
    assertEquals(2, html.split("class=\"reference\"", -1).length - 1, html);

    DocsSection section = ZkReport.DOCS.section();
    String doc = "# ZooKeeper\n\nintro\n\n" + section.begin() + "\nold table\n" + section.end() + "\n\n## next\n";
    String updated = section.replace(doc, md, "doc.md");
    assertTrue(updated.startsWith("# ZooKeeper\n\nintro\n\n" + section.begin() + "\n\n" + md), updated);
    assertTrue(updated.endsWith(section.end() + "\n\n## next\n") && !updated.contains("old table"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> section.replace("# no markers\n", md, "doc.md"));
    assertTrue(e.getMessage().contains("doc.md") && e.getMessage().contains("zk-bench docs"), e.getMessage());
  }

  @Test
  void compareReadsTwoRunsAndRefusesOtherFiles() throws Exception {
    Path a = dir.resolve("a.json");
    Files.writeString(a, report().results().toJson(), StandardCharsets.UTF_8);
    ResultsFile run = ResultsFile.read(a, ZkReport.TOOL);
    String out = Compare.table(run, run, a.toString(), a.toString());
    assertTrue(out.contains("quorum-tls   tls12-jsse") && out.contains("within noise"), out);

    Path other = dir.resolve("other.json");
    Files.writeString(other, report().results().toJson().replace("\"tool\": \"zk-bench\"",
        "\"tool\": \"ingest-bench\""), StandardCharsets.UTF_8);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ResultsFile.read(other, ZkReport.TOOL));
    assertTrue(e.getMessage().contains("other.json was written by ingest-bench, not zk-bench"), e.getMessage());
  }

  @Test
  void docsJudgeRunsOnTheirTolerancesAlone() throws Exception {
    Path a = dir.resolve("a.json");
    Files.writeString(a, report().results().toJson(), StandardCharsets.UTF_8);
    Path doc = dir.resolve("zookeeper.md");
    Files.writeString(doc, ZkReport.DOCS.section().begin() + "\n" + ZkReport.DOCS.section().end() + "\n",
        StandardCharsets.UTF_8);
    ZkReport.DOCS.write(doc, List.of(a, a));
    String written = Files.readString(doc, StandardCharsets.UTF_8);
    assertTrue(written.contains("Tolerances: cpu ±3 points, wall ±5 points. A row within its tolerance agrees whether"
        + " or not its intervals cover each other's estimates. Every judged row agrees."), written);
  }

  /** Five rounds of made-up rows: TLS 10 % slower on quorum-tls, its CPU 20 % higher. */
  private static ZkReport report() {
    List<Measurement> rows = new ArrayList<>();
    for (int round = 0; round <= 5; round++) {
      for (String mode : List.of("none", "tls12-jsse")) {
        double factor = mode.equals("none") ? 1 : 1.1;
        double jitter = 1 + 0.01 * (round % 3);
        Map<String, Number> v = new LinkedHashMap<>();
        v.put(ZkRow.WALL_MS, 1000 * factor * jitter);
        v.put(ZkRow.OPS, 22_000);
        v.put(ZkRow.SYNC_MS, 400 * factor);
        v.put(ZkRow.SYNC_OPS, 400);
        v.put(ZkRow.SESSION_MS, 20.0);
        v.put("client_cpu_ms", 500 * (factor + 0.1) * jitter);
        v.put("server_cpu_ms", 700 * (factor + 0.1));
        v.put("client_gc_ms", 3);
        v.put("server_gc_ms", 4);
        for (String op : Workload.SYNC_OPS) {
          v.put(ZkRow.syncColumn(op, 50), 900.0);
          v.put(ZkRow.syncColumn(op, 99), 2000.0);
        }
        rows.add(new Measurement("quorum-tls", mode, round, v));
      }
    }
    List<Overhead> overheads = new ArrayList<>();
    overheads.addAll(PairedAnalysis.overheads(rows, "none", ZkBenchmark.WALL, ZkRow::wallPerOp, 1));
    overheads.addAll(PairedAnalysis.overheads(rows, "none", ZkBenchmark.CPU, ZkRow::cpuPerOp, 1));
    overheads.addAll(PairedAnalysis.overheads(rows, "none", ZkBenchmark.SYNC, ZkRow::syncPerOp, 1));
    return new ZkReport("made-up run", Map.of("znodes", 2000), List.of(Shape.QUORUM_TLS.describe()),
        RunInfo.start("test").finish(), StoppingRule.fixed(5), StoppingRule.Decision.ROUNDS_DONE, overheads, rows);
  }
}
