package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.StoppingRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** peer-bench's pairings, metrics and settings: the names, units, rates and columns its figures are made of. */
class PeerPartsTest {
  @Test
  void pairingsAreReadByLabelAndSayWhoseSideIsWhose() {
    assertEquals(Pairing.OUR_SERVER, Pairing.of("our-server"));
    assertEquals(Pairing.LIBTHRIFT, Pairing.BASELINE);
    assertFalse(Pairing.LIBTHRIFT.ourClient() || Pairing.LIBTHRIFT.ourServer());
    assertTrue(Pairing.SECURETHRIFT.ourClient() && Pairing.SECURETHRIFT.ourServer());
    assertTrue(Pairing.OUR_CLIENT.ourClient() && !Pairing.OUR_CLIENT.ourServer());
    assertTrue(!Pairing.OUR_SERVER.ourClient() && Pairing.OUR_SERVER.ourServer());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Pairing.of("OUR-CLIENT"));
    assertEquals("'OUR-CLIENT' is not a pairing; accepted: libthrift, securethrift, our-client, our-server",
        e.getMessage());
  }

  @Test
  void metricsAreNamedBySizeAndDescribedInWords() {
    PeerMetric bulk = PeerMetric.bulk(1 << 20);
    assertEquals(new PeerMetric("bulk-1MiB", "bulk", 1 << 20), bulk);
    assertEquals("MB/s each way", bulk.unit());
    assertEquals("MB/s each way, 1 MiB messages", bulk.describe());
    PeerMetric rt = PeerMetric.roundTrips(100);
    assertEquals("rt-100B", rt.name());
    assertEquals("round trips/s", rt.unit());
    assertEquals("round trips/s, 100 B messages", rt.describe());
    assertEquals("round trips/s, 64 KiB messages", PeerMetric.roundTrips(65536).describe());
    assertEquals("connections/s", PeerMetric.CONNECTIONS.unit());
    assertEquals("new connections/s (connect, 1-byte call, close)", PeerMetric.CONNECTIONS.describe());
    assertEquals(List.of("rt-100B_ops", "rt-100B_ns", "rt-100B_cpu_ns", "rt-100B_jit_ms"),
        List.of(rt.opsColumn(), rt.nanosColumn(), rt.cpuColumn(), rt.jitColumn()));
  }

  @Test
  void ratesAreOperationsPerSecondAndBulkIsMegabytesPerSecond() {
    // 3 operations in 2 s: 1.5 per second; of 1 MiB each, 1.5 x 1,048,576 B = 1.572864 MB/s.
    assertEquals(1.572864, PeerMetric.bulk(1 << 20).rate(3, 2_000_000_000L), 1e-12);
    assertEquals(1.5, PeerMetric.roundTrips(1 << 20).rate(3, 2_000_000_000L), 1e-12);
    assertEquals(250.0, PeerMetric.CONNECTIONS.rate(50, 200_000_000L), 1e-12);
    // 8 KiB at 10,000 calls in half a second: 20,000/s x 8,192 B = 163.84 MB/s.
    assertEquals(163.84, PeerMetric.bulk(8192).rate(10_000, 500_000_000L), 1e-9);
  }

  @Test
  void commandsCarryTheSizeAndWhetherToKeepTheConnectionExceptForConnections() {
    LineRecord echo = PeerMetric.bulk(8192).command(0.25, true);
    assertEquals(PeerCell.ECHO, echo.kind());
    assertEquals(Map.of("seconds", "0.25", "size", "8192", "reuse", "true"), echo.fields());
    assertEquals("false", PeerMetric.roundTrips(100).command(1.0).get("reuse"), "a fresh connection by default");
    LineRecord connect = PeerMetric.CONNECTIONS.command(2.0, true);
    assertEquals(PeerCell.CONNECT, connect.kind());
    assertEquals(Map.of("seconds", "2.0"), connect.fields(), "a connection metric opens its own every time");
  }

  @Test
  void settingsPutTheBaselineFirstOnceAndListMetricsInRoundOrder() {
    PeerSettings s = settings(List.of(Pairing.OUR_SERVER, Pairing.LIBTHRIFT, Pairing.OUR_SERVER,
        Pairing.SECURETHRIFT), true, StoppingRule.fixed(2), "none", "sasl-auth-int");
    assertEquals(List.of(Pairing.LIBTHRIFT, Pairing.OUR_SERVER, Pairing.SECURETHRIFT), s.pairings());
    assertEquals(List.of("bulk-64KiB", "bulk-1MiB", "rt-100B", "connect"),
        s.metrics().stream().map(PeerMetric::name).toList());
    assertTrue(s.sasl());
    assertFalse(settings(List.of(), false, StoppingRule.fixed(2), "none", "tls-jsse").sasl());
    assertEquals(List.of("rt-100B"), settings(List.of(), false, StoppingRule.fixed(1), "none").metrics().stream()
        .map(PeerMetric::name).toList(), "no bulk sizes given here, and no connections");
  }

  @Test
  void settingsRecordEveryValueUnderItsOptionsName() {
    Map<String, Object> fixed = settings(List.of(Pairing.OUR_CLIENT), true, StoppingRule.fixed(2), "none",
        "tls-conscrypt").toMap();
    assertEquals("{modes=[none, tls-conscrypt], pairings=[libthrift, our-client], bulkSizes=[65536, 1048576],"
        + " smallSizes=[100], connections=true, secondsPerMetric=3.0, turnsPerMetric=4, warmUpSecondsPerMetric=0.5,"
        + " warmUpTurns=7, rounds=2}", fixed.toString());
    Map<String, Object> adaptive = settings(List.of(), false, PeerSettings.DEFAULT_STOPPING, "none").toMap();
    assertEquals(0, adaptive.get("rounds"));
    assertEquals(3.0, adaptive.get("precision"));
    assertEquals(1200.0, adaptive.get("maxTimeSeconds"));
    assertEquals(4, adaptive.get("minRounds"));
  }

  @Test
  void descriptionStatesTheTurnsAndTheWarmUpsShareOfTheBudgetOnlyWhenThereIsOne() {
    String fixed = settings(List.of(), false, StoppingRule.fixed(2), "none").describe();
    assertTrue(fixed.contains("for 0.5 s in a warm-up round that is not analysed (turns repeat, up to 7, while the"
        + " cell's JIT compiles for more than 5 % of a turn), then for 3.0 s per round"), fixed);
    assertTrue(fixed.contains("taking 4 turns of 0.75 s each"), fixed);
    String adaptive = settings(List.of(), false, PeerSettings.DEFAULT_STOPPING, "none").describe();
    assertTrue(adaptive.contains("of a turn, the warm-up's turns sharing 60 % of the time budget), then"), adaptive);
  }

  @Test
  void modesAskForTls12OnConscryptOnly() {
    assertEquals("TLSv1.2", PeerModes.clientProtocol(PeerModes.MODES.parse("--modes", "tls-conscrypt")));
    assertEquals("TLS", PeerModes.clientProtocol(PeerModes.MODES.parse("--modes", "tls-jsse")));
    assertEquals("TLS", PeerModes.clientProtocol(PeerModes.MODES.parse("--modes", "sasl-auth")));
    assertFalse(PeerModes.conscrypt(PeerModes.MODES.parse("--modes", "none")));
    assertEquals(List.of("none", "tls-jsse", "tls-conscrypt", "tls-openssl", "sasl-auth", "sasl-auth-int",
        "sasl-auth-conf"),
        PeerModes.MODES.names());
  }

  private static PeerSettings settings(List<Pairing> pairings, boolean connections, StoppingRule rule,
      String... modes) {
    List<BenchMode> parsed = List.of(modes).stream().map(m -> PeerModes.MODES.parse("--modes", m)).toList();
    List<Integer> bulk = connections ? List.of(65536, 1 << 20) : List.of();
    return new PeerSettings(parsed, pairings, bulk, List.of(100), connections, 3.0, 4, 0.5, 7, rule,
        Path.of("out"));
  }
}
