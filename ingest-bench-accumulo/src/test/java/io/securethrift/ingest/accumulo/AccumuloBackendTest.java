package io.securethrift.ingest.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.ResultsFile;
import io.securethrift.core.ConfigException;
import io.securethrift.ingest.bench.BenchSettings;
import io.securethrift.ingest.bench.IngestBenchmark;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
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
  void writesAndVerifiesThroughAccumuloInPlainConscryptSaslAndProviderModes() throws Exception {
    // The provider mode's run also fails unless Accumulo's client settled AES-GCM with its tablet server.
    String report = new IngestBenchmark(settings(List.of("none", "ssl-conscrypt", "sasl-auth-conf",
        "sasl-auth-conf-provider"), Map.of()).rounds(3).build()).run();

    assertTrue(report.contains("accumulo backend"), report);
    List<String> csv = Files.readAllLines(output.resolve("ingest-results.csv"));
    assertEquals(5, csv.size(), "a header and one row per mode: " + csv);
    assertTrue(csv.get(1).startsWith("none,") && csv.get(2).startsWith("tls-conscrypt,")
        && csv.get(3).startsWith("sasl-auth-conf,") && csv.get(4).startsWith("sasl-auth-conf-provider,"),
        csv.toString());
    assertNull(Security.getProvider(SecureThriftSaslProvider.NAME), "the run removed the provider it installed");
    // The same method as the embedded backend: per-round paired overheads with intervals, both sides sampled.
    ResultsFile results = ResultsFile.fromJson(Files.readString(output.resolve("ingest-results.json")));
    assertEquals(6, results.overheads().size(), "wall and CPU overhead of the three secured modes");
    // A CPU round below the OS's 10 ms tick once the JIT's share is out has no ratio and is left out; three rounds
    // give an interval.
    assertTrue(results.overheads().stream().allMatch(o -> o.rounds() >= 1 && o.rounds() <= 3
        && (o.rounds() < 3 || o.interval().bounded())), results.overheads().toString());
    // The OS counts CPU in 10 ms ticks, so a mode's sum is asserted, not each small iteration's.
    for (String mode : List.of("none", "tls-conscrypt", "sasl-auth-conf", "sasl-auth-conf-provider")) {
      for (String side : List.of("client_cpu_ms", "server_cpu_ms")) {
        assertTrue(results.rows().stream().filter(m -> m.variant().equals(mode)).mapToDouble(m -> m.value(side))
            .sum() > 0, "the tablet server's and this JVM's CPU are read from the OS: " + mode + " " + side);
      }
    }
  }

  @Test
  void unknownBackendOptionIsNamed() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> new IngestBenchmark(settings(List.of("none"), Map.of("client.propertes", "x")).build()).run());
    assertTrue(e.getMessage().contains("client.propertes") && e.getMessage().contains("client.properties"),
        e.getMessage());
  }

  @Test
  void existingInstanceMustMatchTheMode(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("accumulo-client.properties"),
        "instance.name=ci\ninstance.zookeepers=localhost:2181\nauth.type=password\nauth.principal=root\n");
    ConfigException e = assertThrows(ConfigException.class, () -> new IngestBenchmark(
        settings(List.of("sasl-auth"), Map.of(AccumuloBackend.CLIENT_PROPERTIES, file.toString())).build()).run());
    assertTrue(e.getMessage().contains("sasl-auth needs sasl"), e.getMessage());
  }

  private BenchSettings.Builder settings(List<String> modes, Map<String, String> options) {
    return BenchSettings.builder().backend("accumulo").backendOptions(options).modes(modes).rounds(1).entries(2_000)
        .warmupEntries(0).flushInterval(250).batchMemory(256 * 1024).maxLatency(Duration.ofSeconds(5)).writeThreads(2)
        .seed(11L).output(output);
  }
}
