package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result files written, read back and compared, as {@code ingest-bench compare} does with two runs. */
class ResultsFileTest {
  @TempDir
  Path dir;

  @Test
  void rawRowsAndOverheadsSurviveTheRoundTrip() throws Exception {
    ResultsFile written = run(1.10, 1.30, 1);
    Path file = Files.writeString(dir.resolve("a.json"), written.toJson(), StandardCharsets.UTF_8);
    ResultsFile read = ResultsFile.fromJson(Files.readString(file, StandardCharsets.UTF_8));

    assertEquals(written.rows(), read.rows().stream().map(ResultsFileTest::asWritten).toList());
    assertEquals(written.overheads().size(), read.overheads().size());
    for (int i = 0; i < read.overheads().size(); i++) {
      assertArrayEquals(written.overheads().get(i).ratios(), read.overheads().get(i).ratios(), 1e-12);
      assertEquals(written.overheads().get(i).interval(), read.overheads().get(i).interval());
    }
    assertEquals("abc123", read.info().get("commit"));
    assertEquals(2.0, read.info().get("cores"));
    assertEquals("PRECISE", read.stopped());
    String csv = written.rowsCsv();
    assertTrue(csv.startsWith("server,mode,round,wall_ms,entries,note_free\n"), csv);
    assertEquals(1 + written.rows().size(), csv.lines().count());
    assertThrows(IllegalArgumentException.class, () -> ResultsFile.fromJson("{\"tool\": \"x\"}"));
  }

  @Test
  void brokenOrHostileFilesAreRefusedNamingWhatIsWrongOnOneLine() {
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put("{\"a\": \"x\\", "JSON: unterminated string at offset 9");
    refused.put("{\"a\": \"\\u12\"}", "JSON: \\u not followed by four hex digits at offset 9");
    refused.put("[".repeat(65), "JSON: objects and arrays nested deeper than 64 at offset 64");
    refused.put("[1, 2]", "not a benchmark result file: the document is not an object");
    refused.put("{\"labels\": {\"group\": \"s\u001b[2Jx\", \"variant\": \"v\"}, \"overheads\": [{}]}",
        "not a benchmark result file: no \"ratios\"");
    refused.put("{\"labels\": {\"group\": \"s\u001b[2Jx\", \"variant\": \"v\"}, \"overheads\": [{\"ratios\": []}]}",
        "not a benchmark result file: no \"s?[2Jx\"");
    refused.put("{\"labels\": {\"group\": \"g\", \"variant\": \"v\"}, \"overheads\": [null]}",
        "not a benchmark result file: an overhead is not an object");
    refused.put("{\"labels\": {\"group\": \"g\", \"variant\": \"v\"}, \"overheads\": [{\"ratios\": [\"1\"]}]}",
        "not a benchmark result file: a ratio is not a number");
    String labels = "\"labels\": {\"group\": \"g\", \"variant\": \"v\"}";
    refused.put("{" + labels + ", \"overheads\": [{\"g\": \"a\", \"v\": \"b\", \"metric\": \"cpu\", \"ratios\": [],"
        + " \"estimate\": \"12 %\"}]}", "not a benchmark result file: an overhead's \"estimate\" is not a number");
    refused.put("{" + labels + ", \"overheads\": [], \"rows\": [{\"g\": \"a\", \"v\": \"b\", \"round\": \"1\"}]}",
        "not a benchmark result file: a row's \"round\" is not a number");
    refused.put("{\"tool\": 7, " + labels + ", \"overheads\": []}",
        "not a benchmark result file: \"tool\" is not a string");
    refused.put("{" + labels + ", \"overheads\": [], \"info\": []}",
        "not a benchmark result file: \"info\" is not an object");
    refused.put("{" + labels + ", \"overheads\": [], \"summary\": [1]}",
        "not a benchmark result file: a summary line is not an object");
    refused.put("{" + labels + ", \"overheads\": [], \"precision\": true}",
        "not a benchmark result file: \"precision\" is not a number");
    refused.forEach((text, message) -> assertEquals("run.json is not a result file of bench: " + message,
        assertThrows(IllegalArgumentException.class, () -> ResultsFile.parse(text, "run.json", "bench"))
            .getMessage(), text));
    String otherTool = "{\"tool\": \"zk\\nFAKE LOG LINE\", \"labels\": {\"group\": \"g\", \"variant\": \"v\"},"
        + " \"overheads\": []}";
    assertEquals("run.json was written by zk?FAKE LOG LINE, not bench", assertThrows(IllegalArgumentException.class,
        () -> ResultsFile.parse(otherTool, "run.json", "bench")).getMessage());
  }

  @Test
  void wideningIsReadBackAndOneInOlderFilesAndABadOneIsNamed() {
    String json = run(1.10, 1.30, 1).toJson();
    assertTrue(json.matches("(?s).*\"widening\":\\s*1\\b.*"), json);
    String older = json.replaceAll(",\\s*\"widening\":\\s*1(\\.0)?", "");
    assertTrue(!older.contains("widening"), older);
    ResultsFile read = ResultsFile.fromJson(older);
    assertTrue(read.overheads().stream().allMatch(o -> o.widening() == 1), "files without it read as 1");
    assertEquals(1.7, ResultsFile.fromJson(json.replaceFirst("(\"widening\":\\s*)1(\\.0)?", "$11.7"))
        .overheads().get(0).widening());
    for (String bad : List.of("0.5", "\"wide\"")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ResultsFile.fromJson(json.replaceFirst("(\"widening\":\\s*)1(\\.0)?", "$1" + bad)));
      assertTrue(e.getMessage().startsWith("not a benchmark result file: an overhead's \"widening\" must be a finite"
          + " number of at least 1, got "), e.getMessage());
      assertTrue(e.getMessage().endsWith(bad.equals("0.5") ? "got 0.5" : "got a String"), e.getMessage());
    }
  }

  @Test
  void compareMarksOnlyTheDifferenceOutsideTheNoise() throws Exception {
    Path a = Files.writeString(dir.resolve("a.json"), run(1.10, 1.30, 1).toJson());
    Path b = Files.writeString(dir.resolve("b.json"), run(1.10, 1.60, 2).toJson());
    String table = Compare.table(ResultsFile.fromJson(Files.readString(a)), ResultsFile.fromJson(Files.readString(b)),
        "a.json", "b.json");
    List<String> lines = table.lines().toList();
    assertTrue(lines.get(0).startsWith("A = a.json (bench, commit abc123, started 2026-01-01T00:00:00Z, 2 cores, load"
        + " 0.50 -> 0.70, stopped: PRECISE)"), table);
    String tls = lines.stream().filter(l -> l.contains(" tls ")).findFirst().orElseThrow();
    String sasl = lines.stream().filter(l -> l.contains(" sasl ")).findFirst().orElseThrow();
    assertTrue(tls.endsWith("within noise"), table);
    assertTrue(sasl.endsWith("REAL"), table);
  }

  /** Rounds of a baseline, a variant "tls" at {@code tls} times its cost and "sasl" at {@code sasl}, 1 % noise. */
  @Test
  void everyBenchmarkWritesItsFourFilesAlikeWithCsvQuotedAsRfc4180Says() throws Exception {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("mode", "tls, \"quoted\"");
    summary.put("ratio", 0.91234);
    summary.put("missing", Double.NaN);
    summary.put("rounds", 6);
    summary.put("note", null);
    ResultsFile written = new ResultsFile("bench", Map.of(), Map.of(), "server", "mode", "none", "PRECISE", 3.0,
        List.of(), List.of(summary), List.of(row("threadpool", "a,b", 1, 2.5)));
    assertEquals("mode,ratio,missing,rounds,note\n\"tls, \"\"quoted\"\"\",0.912,,6,\n", written.summaryCsv());
    assertEquals("server,mode,round,wall_ms,entries,note_free\nthreadpool,\"a,b\",1,2.500,1000,\n",
        written.rowsCsv());

    List<Path> files = written.write(dir.resolve("out"), "bench", "<html></html>");
    assertEquals(List.of("bench-results.json", "bench-results.csv", "bench-iterations.csv", "bench-results.html"),
        files.stream().map(f -> f.getFileName().toString()).toList());
    assertEquals(written.summaryCsv(), Files.readString(files.get(1), StandardCharsets.UTF_8));
    assertEquals(written.rowsCsv(), Files.readString(files.get(2), StandardCharsets.UTF_8));
    assertEquals("<html></html>", Files.readString(files.get(3), StandardCharsets.UTF_8));
    ResultsFile read = ResultsFile.read(files.get(0), "bench");
    assertEquals(written.summaryCsv().replace("0.912,,6,", "0.912,,6.000,"), read.summaryCsv(),
        "JSON reads numbers back as doubles; the text is otherwise the same");
  }

  @Test
  void theStopLineSaysWhyTheRoundsEndedAndNamesWhatMissedThePrecision() {
    ResultsFile precise = run(1.10, 1.30, 1);
    assertEquals("every interval within +/-3.0 points", precise.stoppedBecause("every interval within +/-3.0 points",
        o -> true));
    ResultsFile outOfTime = withStop(precise, "OUT_OF_TIME", 0.01);
    String line = outOfTime.stoppedBecause("unused", o -> o.variant().equals("sasl"));
    assertTrue(line.startsWith("the time budget was spent, not within +/-0.0 points: threadpool sasl wall (+/-"),
        line);
    assertTrue(!line.contains("threadpool tls"), "only the judged overheads are named: " + line);
    assertEquals("the time budget was spent", withStop(precise, "OUT_OF_TIME", 100).stoppedBecause("unused",
        o -> true));
    assertEquals("the fixed number of rounds was done", withStop(precise, "ROUNDS_DONE", 3).stoppedBecause("unused",
        o -> true));
  }

  private static ResultsFile withStop(ResultsFile r, String stopped, double precision) {
    return new ResultsFile(r.tool(), r.info(), r.settings(), r.groupLabel(), r.variantLabel(), r.baseline(), stopped,
        precision, r.overheads(), r.summary(), r.rows());
  }

  private static ResultsFile run(double tls, double sasl, long seed) {
    Random random = new Random(seed);
    List<Measurement> rows = new ArrayList<>();
    for (int round = 1; round <= 6; round++) {
      double drift = 1000 * (1 + 0.2 * random.nextDouble());
      rows.add(row("none", round, drift));
      rows.add(row("tls", round, drift * tls * (1 + 0.01 * random.nextGaussian())));
      rows.add(row("sasl", round, drift * sasl * (1 + 0.01 * random.nextGaussian())));
    }
    List<Overhead> overheads = PairedAnalysis.overheads(rows, "none", "wall", m -> m.value("wall_ms"), 5);
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("rounds", 6);
    RunInfo info = new RunInfo("abc123", "test jdk", 2, 0.5, 0.7, Instant.parse("2026-01-01T00:00:00Z"),
        Duration.ofSeconds(100));
    return new ResultsFile("bench", info.toMap(), settings, "server", "mode", "none", "PRECISE", 3.0, overheads,
        List.of(), rows);
  }

  private static Measurement row(String mode, int round, double wallMs) {
    return row("threadpool", mode, round, wallMs);
  }

  private static Measurement row(String server, String mode, int round, double wallMs) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put("wall_ms", wallMs);
    v.put("entries", 1000L);
    v.put("note_free", Double.NaN);
    return new Measurement(server, mode, round, v);
  }

  /** JSON numbers read back as doubles and NaN as null; map them to the written types to compare rows. */
  private static Measurement asWritten(Measurement m) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put("wall_ms", m.value("wall_ms"));
    v.put("entries", (long) m.value("entries"));
    v.put("note_free", m.value("note_free"));
    return new Measurement(m.group(), m.variant(), m.round(), v);
  }
}
