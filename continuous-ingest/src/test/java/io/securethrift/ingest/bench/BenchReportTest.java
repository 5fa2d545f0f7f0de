package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.ingest.client.IngestResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {
  @TempDir
  Path dir;

  private static IngestResult run(long ms) {
    return new IngestResult(1_000_000, 100_000_000, ms * 1_000_000, 2_000_000_000L, 1_000_000_000L);
  }

  private static BenchReport report() {
    ModeSummary none = ModeSummary.of("none", List.of(run(1000), run(1200), run(1100)));
    ModeSummary tls = ModeSummary.of("tls-jsse", List.of(run(1210), run(1100), run(1300)));
    ModeSummary sasl = ModeSummary.of("sasl-auth", List.of(run(1331), run(1331)));
    return new BenchReport(List.of(none, tls, sasl), "test settings");
  }

  @Test
  void summaryHasAccumulosColumns() {
    ModeSummary none = ModeSummary.of("none", List.of(run(1000), run(1200), run(1100)));
    assertEquals(1100, none.medianMs(), 1e-9);
    assertEquals(100, none.stddevMs(), 1e-9);
    assertEquals(1000, none.minMs(), 1e-9);
    assertEquals(1200, none.maxMs(), 1e-9);
    assertEquals(1_000_000 / 1.1, none.entriesPerSecond(), 1e-6);
    assertEquals(100 / 1.1, none.megabytesPerSecond(), 1e-9);
    assertEquals(2.0, none.clientCpuSeconds(), 1e-9);
  }

  @Test
  void percentagesAreAgainstTheBaselineAndThePreviousLevel() {
    String csv = report().csv();
    List<String> lines = csv.lines().toList();
    assertEquals("mode,iterations,median_ms,stddev_ms,min_ms,max_ms,median_pct_vs_none,min_pct_vs_none,"
        + "max_pct_vs_none,pct_vs_previous,entries_per_s,mb_per_s,client_cpu_s,server_cpu_s", lines.get(0));
    assertTrue(lines.get(1).startsWith("none,3,1100.000,100.000,1000.000,1200.000,0.000,0.000,0.000,0.000,"),
        lines.get(1));
    assertTrue(lines.get(2).startsWith("tls-jsse,3,1210.000,100.167,1100.000,1300.000,10.000,10.000,8.333,10.000,"),
        lines.get(2));
    assertTrue(lines.get(3).startsWith("sasl-auth,2,1331.000,0.000,1331.000,1331.000,21.000,33.100,10.917,10.000,"),
        lines.get(3));
  }

  @Test
  void writesCsvJsonAndASelfContainedChart() throws Exception {
    List<Path> files = report().write(dir);
    assertEquals(3, files.size());
    String json = Files.readString(dir.resolve("ingest-results.json"));
    assertTrue(json.contains("{\"mode\": \"tls-jsse\", \"iterations\": 3, \"median_ms\": 1210.000"), json);
    String html = Files.readString(dir.resolve("ingest-results.html"));
    assertTrue(html.contains("<svg") && html.contains(">sasl-auth</text>") && !html.contains("<script"), html);
    assertTrue(report().table().contains("tls-jsse"));
  }
}
