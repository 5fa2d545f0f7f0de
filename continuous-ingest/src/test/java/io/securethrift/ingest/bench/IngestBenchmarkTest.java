package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole harness on a small workload: real KDC and CA in this JVM, a server and a client JVM per mode, verify
 * after every iteration. Timings are not asserted (that is the benchmark's job); that every mode ran, verified and
 * reported is.
 */
class IngestBenchmarkTest {
  @TempDir
  Path output;

  @Test
  void everyModeRunsVerifiesAndIsReported() throws Exception {
    List<String> modes = List.of("none", "tls-jsse", "tls-conscrypt", "sasl-auth", "sasl-auth-conf", "sasl-over-tls");
    BenchSettings settings = new BenchSettings("embedded", Map.of(), modes, 2, 12_000, 0, 500, 64 * 1024, Duration.ofSeconds(10), 2, 3,
        true, output);
    String report = new IngestBenchmark(settings).run();

    List<String> csv = Files.readAllLines(output.resolve("ingest-results.csv"));
    assertEquals(1 + modes.size(), csv.size(), report);
    for (int i = 0; i < modes.size(); i++) {
      String[] cells = csv.get(i + 1).split(",");
      assertEquals(modes.get(i), cells[0]);
      assertEquals("2", cells[1], "iterations of " + modes.get(i));
      assertTrue(Double.parseDouble(cells[2]) > 0, "median of " + modes.get(i));
      assertTrue(Double.parseDouble(cells[13]) > 0, "server CPU of " + modes.get(i));
      assertTrue(report.contains(modes.get(i)), report);
    }
    assertTrue(Files.readString(output.resolve("ingest-results.html")).contains("<svg"));
  }

  /** The same run on the non-blocking server: every secured level ingests and verifies through it. */
  @Test
  void theNonblockingServerRunsEveryKindOfMode() throws Exception {
    List<String> modes = List.of("none", "tls-conscrypt", "sasl-auth-conf", "sasl-over-tls");
    BenchSettings settings = new BenchSettings("embedded", Map.of(), modes, 1, 6_000, 0, 500, 64 * 1024,
        Duration.ofSeconds(10), 2, 3, false, output, ServerModel.NONBLOCKING);
    String report = new IngestBenchmark(settings).run();
    List<String> csv = Files.readAllLines(output.resolve("ingest-results.csv"));
    assertEquals(1 + modes.size(), csv.size(), report);
    assertTrue(report.contains("nonblocking server"), report);
  }
}
