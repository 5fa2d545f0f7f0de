package io.securethrift.accumulo.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.ingest.bench.BenchSettings;
import io.securethrift.ingest.bench.IngestBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code accumulo} ingest backend driven by the real harness: a real KDC and CA, one Accumulo 2.1
 * MiniAccumuloCluster per mode, Accumulo's own BatchWriter and Scanner, and the continuous-ingest verify rules.
 */
class AccumuloBackendTest {
  @TempDir Path output;

  @Test
  @Tag("minicluster")
  void writesAndVerifiesThroughAccumuloInPlainConscryptAndSaslModes() throws Exception {
    String report = new IngestBenchmark(settings(List.of("none", "ssl-conscrypt", "sasl-auth-conf"), Map.of())).run();

    assertTrue(report.contains("accumulo backend"), report);
    List<String> csv = Files.readAllLines(output.resolve("ingest-results.csv"));
    assertEquals(4, csv.size(), "a header and one row per mode: " + csv);
    assertTrue(csv.get(1).startsWith("none,") && csv.get(2).startsWith("tls-conscrypt,")
        && csv.get(3).startsWith("sasl-auth-conf,"), csv.toString());
  }

  @Test
  void unknownBackendOptionIsNamed() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> new IngestBenchmark(settings(List.of("none"), Map.of("client.propertes", "x"))).run());
    assertTrue(e.getMessage().contains("client.propertes") && e.getMessage().contains("client.properties"),
        e.getMessage());
  }

  @Test
  void existingInstanceMustMatchTheMode(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("accumulo-client.properties"),
        "instance.name=ci\ninstance.zookeepers=localhost:2181\nauth.type=password\nauth.principal=root\n");
    ConfigException e = assertThrows(ConfigException.class, () -> new IngestBenchmark(
        settings(List.of("sasl-auth"), Map.of(AccumuloBackend.CLIENT_PROPERTIES, file.toString()))).run());
    assertTrue(e.getMessage().contains("sasl-auth needs sasl"), e.getMessage());
  }

  private BenchSettings settings(List<String> modes, Map<String, String> options) {
    return new BenchSettings("accumulo", options, modes, 1, 2_000, 0, 250, 256 * 1024, Duration.ofSeconds(5), 2, 11L,
        false, output);
  }
}
