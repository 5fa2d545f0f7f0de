package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.ConfigException;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {
  private static BenchSettings settings(List<String> modes, int iterations, long entries, int threads) {
    return new BenchSettings("embedded", Map.of(), modes, iterations, entries, 0, 1000, 500_000, Duration.ofSeconds(1), threads, 1, false,
        Path.of("out"));
  }

  private static String error(Runnable r) {
    return assertThrows(ConfigException.class, r::run).getMessage();
  }

  @Test
  void badSettingsStopTheRunBeforeItStartsNamingTheOption() {
    assertEquals("--modes: 'tls' is not a mode of the embedded backend; accepted values: none, tls-jsse,"
        + " tls-conscrypt, sasl-auth, sasl-auth-int, sasl-auth-conf, sasl-over-tls",
        error(() -> new IngestBenchmark(settings(List.of("none", "tls"), 1, 1, 1))));
    assertEquals("--backend: 'hbase' is not available; available: embedded", error(() -> new IngestBenchmark(
        new BenchSettings("hbase", Map.of(), List.of("none"), 1, 1, 0, 1, 1024, Duration.ofSeconds(1), 1, 1, false,
            Path.of("out")))));
    assertEquals("--modes: empty; name at least one mode", error(() -> settings(List.of(), 1, 1, 1)));
    assertEquals("--modes: a mode is listed twice in [none, none]",
        error(() -> settings(List.of("none", "none"), 1, 1, 1)));
    assertEquals("--iterations: 0 is less than 1", error(() -> settings(List.of("none"), 0, 1, 1)));
    assertEquals("--entries: 0 is less than 1", error(() -> settings(List.of("none"), 1, 0, 1)));
    assertEquals("--write-threads: 65 is outside 1 to 64", error(() -> settings(List.of("none"), 1, 1, 65)));
    assertEquals("--server: applies to the embedded backend only; the accumulo backend runs its own servers",
        error(() -> new BenchSettings("accumulo", Map.of(), List.of("none"), 1, 1, 0, 1, 1024, Duration.ofSeconds(1),
            1, 1, false, Path.of("out"), ServerModel.NONBLOCKING)));
    assertEquals("--server: 'netty' is not accepted; accepted values: threadpool, nonblocking",
        error(() -> ServerModel.parse("--server", "netty")));
  }

  @Test
  void accumulosSslNamesAreAliasesOfTheTlsModes() {
    assertEquals(List.of("none", "tls-jsse", "tls-conscrypt"),
        settings(List.of("none", "SSL-JSSE", "ssl-conscrypt"), 1, 1, 1).modes());
    assertEquals("--modes: a mode is listed twice in [tls-jsse, tls-jsse]",
        error(() -> settings(List.of("tls-jsse", "ssl-jsse"), 1, 1, 1)));
  }
}
