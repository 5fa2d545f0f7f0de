package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.StoppingRule;
import io.securethrift.core.ConfigException;
import io.securethrift.ingest.server.ServerModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {
  private static BenchSettings.Builder settings(String... modes) {
    return BenchSettings.builder().modes(List.of(modes));
  }

  private static String error(Runnable r) {
    return assertThrows(ConfigException.class, r::run).getMessage();
  }

  @Test
  void badSettingsStopTheRunBeforeItStartsNamingTheOption() {
    assertEquals("--modes: 'tls12-jsse' is not a mode the embedded backend runs; it runs none, tls-jsse,"
        + " tls-conscrypt, tls-openssl, sasl-auth, sasl-auth-int, sasl-auth-conf, sasl-auth-conf-gcm,"
        + " sasl-auth-conf-provider, sasl-auth-libthrift, sasl-over-tls",
        error(() -> new IngestBenchmark(settings("none", "tls12-jsse").build())));
    assertEquals(List.of("none", "tls-conscrypt", "tls-jsse", "sasl-auth"),
        settings("plain", "tls", "ssl-jsse", "auth").build().modes(), "older spellings read as the canonical names");
    assertEquals("--backend: 'hbase' is not available; available: embedded",
        error(() -> new IngestBenchmark(settings("none").backend("hbase").build())));
    assertEquals("--modes: empty; name at least one mode", error(() -> settings().build()));
    assertEquals("--modes: a mode is listed twice in [none, none]", error(() -> settings("none", "none").build()));
    assertEquals("--entries: -1 is less than 0", error(() -> settings("none").entries(-1).build()));
    assertEquals("--write-threads: 65 is outside 1 to 64", error(() -> settings("none").writeThreads(65).build()));
    assertEquals("--turn-entries: -1 is less than 0", error(() -> settings("none").turnEntries(-1).build()));
    assertEquals("--forks: 0 is outside 1 to 8", error(() -> settings("none").forks(0).build()));
    assertEquals("--forks: applies to the embedded backend only; the accumulo backend runs one cluster per mode",
        error(() -> settings("none").backend("accumulo").forks(2).build()));
    assertEquals("--server: applies to the embedded backend only; the accumulo backend runs its own servers",
        error(() -> settings("none").backend("accumulo").servers(List.of(ServerModel.NONBLOCKING)).build()));
    assertEquals("--server: name each server model once, at least one: [threadpool, threadpool]",
        error(() -> settings("none").servers(List.of(ServerModel.THREADPOOL, ServerModel.THREADPOOL)).build()));
    assertEquals("--server: 'netty' is not accepted; accepted values: threadpool, nonblocking",
        error(() -> ServerModel.parse("--server", "netty")));
    assertEquals("--warmup-rounds: -1 is less than 0", error(() -> settings("none").warmupRounds(-1).build()));
    assertEquals("--duration: and --entries both size an iteration; give one of them",
        error(() -> settings("none").entries(1000).duration(Duration.ofSeconds(5)).build()));
    assertTrue(error(() -> settings("none").entries(0).warmupEntries(0).build())
        .startsWith("--warmup-entries: 0 leaves nothing"));
    assertTrue(error(() -> settings("none").entries(0).warmupRounds(0).build())
        .startsWith("--warmup-rounds: 0 leaves nothing"));
  }

  @Test
  void defaultsAreAdaptiveAndAFixedRoundCountTurnsThatOff() {
    BenchSettings defaults = BenchSettings.builder().build();
    assertEquals(new EmbeddedBackend().modes().names(), defaults.modes());
    StoppingRule rule = defaults.stoppingRule();
    // 280 s from the launcher's start: with its build, the default command ends within 5 minutes.
    assertEquals(new StoppingRule(3.0, Duration.ofSeconds(280), 5, 0), rule);
    assertEquals(3, defaults.warmupRounds());
    // Every run does the same work: a fixed count, not one sized from the warm-up's (machine-dependent) rate.
    assertEquals(BenchSettings.DEFAULT_ENTRIES, defaults.entries());
    assertEquals(BenchSettings.DEFAULT_TURN_ENTRIES, defaults.turnEntries());
    assertEquals(BenchSettings.DEFAULT_FORKS, defaults.forks());
    assertEquals(1, settings("none").backend("accumulo").build().forks(), "one cluster per mode");
    assertTrue(defaults.describe().startsWith("500,000 entries per iteration, each mode taking turns of 100,000"
        + " entries with its own baseline, 2 JVM pairs per mode taking the rounds in turn, 3 warm-up rounds, then"
        + " rounds until every interval is within +/-3.0 points (at least 5) or 280 s have passed;"),
        defaults.describe());
    assertEquals(0, settings("none").duration(Duration.ofSeconds(5)).build().entries(), "time-based instead");
    BenchSettings sized = settings("none").entries(0).build();
    assertEquals(Duration.ofSeconds(1), sized.iterationTime());
    assertTrue(sized.describe().contains("iterations sized to 1.0 s of the fastest mode"), sized.describe());
    BenchSettings fixed = settings("none").rounds(4).entries(1000).build();
    assertEquals(StoppingRule.fixed(4), fixed.stoppingRule());
    assertTrue(fixed.describe().startsWith("1,000 entries per iteration, each mode taking turns of 100,000 entries"
        + " with its own baseline, 2 JVM pairs per mode taking the rounds in turn, 3 warm-up rounds, then 4 rounds;"),
        fixed.describe());
    assertTrue(settings("none").turnEntries(0).forks(1).build().describe().startsWith("500,000 entries per"
        + " iteration, 3 warm-up rounds"), "whole iterations one after the other, one JVM pair");
    assertTrue(settings("none").duration(Duration.ofSeconds(5)).forks(1).build().describe().startsWith(
        "time-based iterations of 5.0 s, 3 warm-up rounds"), "a time-based run takes no turns");
    assertTrue(settings("none").warmupEntries(0).build().describe().contains(", no warm-up, then "));
  }

  @Test
  void accumulosSslNamesAreAliasesOfTheTlsModes() {
    assertEquals(List.of("none", "tls-jsse", "tls-conscrypt"),
        settings("none", "SSL-JSSE", "ssl-conscrypt").build().modes());
    assertEquals("--modes: a mode is listed twice in [tls-jsse, tls-jsse]",
        error(() -> settings("tls-jsse", "ssl-jsse").build()));
  }

  @Test
  void everyBoundIsCheckedWithTheOptionsNameAndTheValue() {
    assertEquals("--flush-interval: 0 is less than 1", error(() -> settings("none").flushInterval(0).build()));
    assertEquals("--batch-memory: 1023 is less than 1024", error(() -> settings("none").batchMemory(1023).build()));
    assertEquals("--write-threads: 0 is outside 1 to 64", error(() -> settings("none").writeThreads(0).build()));
    assertEquals("--forks: 9 is outside 1 to 8", error(() -> settings("none").forks(9).build()));
    assertEquals("--warmup-entries: -2 is less than -1", error(() -> settings("none").warmupEntries(-2).build()));
    assertEquals("--iteration-time: must be greater than zero",
        error(() -> settings("none").iterationTime(Duration.ZERO).build()));
    assertEquals("--max-latency: must be greater than zero",
        error(() -> settings("none").maxLatency(Duration.ofMillis(-1)).build()));
    assertEquals("--duration: must not be negative",
        error(() -> settings("none").duration(Duration.ofSeconds(-1)).build()));
    assertEquals("--server: name each server model once, at least one: []",
        error(() -> settings("none").servers(List.of()).build()));
    // The smallest accepted values build.
    BenchSettings least = settings("none").flushInterval(1).batchMemory(1024).writeThreads(1).forks(1)
        .warmupEntries(-1).turnEntries(0).warmupRounds(0).entries(1).build();
    assertEquals(1, least.flushInterval());
    assertEquals(8, settings("none").forks(8).writeThreads(64).build().forks());
  }

  @Test
  void aTimeBasedRunWithoutAWarmUpIsAllowedButASizedOneIsNot() {
    BenchSettings timed = settings("none").duration(Duration.ofSeconds(3)).warmupRounds(0).build();
    assertEquals(0, timed.entries());
    assertEquals(Duration.ofSeconds(3), timed.duration());
    assertEquals("--warmup-entries: 0 leaves nothing to size the iterations from; give --entries or --duration, or"
        + " keep a warm-up", error(() -> settings("none").entries(0).warmupEntries(0).build()));
  }

  @Test
  void theResultFilesSettingsNameEveryChoiceThatDecidesAFigure() {
    BenchSettings s = settings("none", "tls").servers(List.of(ServerModel.THREADPOOL, ServerModel.NONBLOCKING))
        .backendOptions(java.util.Map.of("instance", "bench")).rounds(6).warmupRounds(2).entries(250_000)
        .warmupEntries(1000).flushInterval(5000).batchMemory(1 << 20).maxLatency(Duration.ofMillis(1500))
        .writeThreads(4).turnEntries(50_000).seed(7).writeAheadLog(true).build();
    java.util.Map<String, Object> m = s.toMap();
    assertEquals("embedded", m.get("backend"));
    assertEquals(java.util.Map.of("instance", "bench"), m.get("backendOptions"));
    assertEquals("none,tls-conscrypt", m.get("modes"), "canonical names, as the rows carry them");
    assertEquals("threadpool,nonblocking", m.get("servers"));
    assertEquals(2, m.get("forks"));
    assertEquals(2, m.get("warmupRounds"));
    assertEquals(250_000L, m.get("entries"));
    assertEquals(1.0, m.get("iterationTimeSeconds"));
    assertEquals(0.0, m.get("durationSeconds"));
    assertEquals(1000L, m.get("warmupEntries"));
    assertEquals(5000, m.get("flushInterval"));
    assertEquals((long) (1 << 20), m.get("batchMemory"));
    assertEquals(1500L, m.get("maxLatencyMs"));
    assertEquals(4, m.get("writeThreads"));
    assertEquals(50_000L, m.get("turnEntries"));
    assertEquals(7L, m.get("seed"));
    assertEquals(true, m.get("writeAheadLog"));
    assertTrue(m.keySet().containsAll(StoppingRule.fixed(6).settings().keySet()), m.toString());
    assertTrue(s.describe().endsWith("flush every 5,000, batch writer 1,048,576 bytes / 4 threads, write-ahead log on,"
        + " seed 7, threadpool and nonblocking servers"), s.describe());
    assertTrue(s.describe().contains("2 warm-up rounds of 1,000 entries"), s.describe());
  }

  @Test
  void theSettingsKeepTheirOwnCopies() {
    List<String> modes = new java.util.ArrayList<>(List.of("none", "tls-jsse"));
    java.util.Map<String, String> options = new java.util.HashMap<>(java.util.Map.of("a", "b"));
    BenchSettings s = BenchSettings.builder().modes(modes).backendOptions(options).build();
    modes.add("sasl-auth");
    options.put("c", "d");
    assertEquals(List.of("none", "tls-jsse"), s.modes());
    assertEquals(java.util.Map.of("a", "b"), s.backendOptions());
    assertThrows(UnsupportedOperationException.class, () -> s.modes().add("sasl-auth"));
  }
}
