package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.bench.FaultBench.Outcome;
import io.securethrift.ingest.bench.FaultBench.Settings;
import io.securethrift.ingest.client.RetryCounters;
import io.securethrift.ingest.workload.VerifyResult;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * What decides a fault run's verdict and its report line, without running one: the {@code --faults} list, the
 * settings' floor, the pass rule (nothing lost, nothing damaged, every acknowledged entry held) and the line's fields.
 */
class FaultBenchPartsTest {
  private static final VerifyResult CLEAN = new VerifyResult(900, 100, 0, 0, List.of());
  private static final FaultTarget.Cost COST = new FaultTarget.Cost(OptionalLong.of(3), OptionalLong.of(2),
      1_500_000_000L);

  private static Outcome outcome(long written, long received, VerifyResult verify, String failure) {
    return new Outcome("tls-jsse", Fault.NET, written, received, COST, verify, 12_345_000_000L, 6, 5, failure, null);
  }

  @Test
  void theFaultListReadsTokensInOrderAndNamesTheKnownOnes() {
    assertEquals(List.of(Fault.RESTART, Fault.NET, Fault.KDC),
        Fault.parseList("--faults", List.of("restart", " net", "kdc ")));
    assertEquals(List.of(Fault.ROTATE, Fault.ROTATE), Fault.parseList("--faults", List.of("rotate", "rotate")),
        "a fault listed twice runs twice");
    assertEquals(List.of(), Fault.parseList("--faults", List.of()));
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> Fault.parseList("--faults", List.of("net", "disk")));
    assertEquals("--faults: unknown fault 'disk'; known: restart,rotate,expire,kdc,net,tls-on",
        unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Fault.parseList("--faults", List.of("tls_on")),
        "a token's words are joined by a hyphen, as in the mode names");
    assertThrows(IllegalArgumentException.class, () -> Fault.parseList("--faults", List.of("NET")),
        "tokens are lowercase, as printed");
  }

  @Test
  void everyFaultsTokenReadsBackAsItself() {
    for (Fault f : Fault.values()) {
      assertEquals(List.of(f), Fault.parseList("x", List.of(f.token())), f.name());
      assertEquals(f.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), f.token());
    }
  }

  @Test
  void aRunShorterThanASecondIsRefused() {
    Settings d = Settings.DEFAULT;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Settings(
        Duration.ofMillis(999), d.flushInterval(), d.batchMemory(), d.writeThreads(), d.retry(), d.server()));
    assertEquals("fault run time must be at least 1 s, was PT0.999S", e.getMessage());
    assertEquals(Duration.ofSeconds(1), new Settings(Duration.ofSeconds(1), 1, 1024, 1, d.retry(), d.server())
        .runTime());
    assertEquals(Duration.ofSeconds(12), d.runTime());
    assertTrue(FaultBench.STALL.compareTo(Duration.ofSeconds(1)) > 0, "a stall outlasts a round trip");
  }

  @Test
  void aRunPassesOnlyWithNothingLostDamagedOrFailed() {
    assertTrue(outcome(1000, 1000, CLEAN, null).passed());
    assertTrue(outcome(1000, 1200, CLEAN, null).passed(), "resends after a lost acknowledgement are harmless");
    assertFalse(outcome(1000, 999, CLEAN, null).passed(), "an acknowledged entry the server does not hold");
    assertFalse(outcome(0, 0, CLEAN, null).passed(), "a run that wrote nothing proves nothing");
    assertFalse(outcome(1000, 1000, new VerifyResult(900, 99, 1, 0, List.of("0000000000000001")), null).passed());
    assertFalse(outcome(1000, 1000, new VerifyResult(900, 100, 0, 1, List.of()), null).passed());
    assertFalse(outcome(1000, 1000, CLEAN, "gave up after 40 tries").passed());
  }

  @Test
  void theLineNamesFaultModeCountsCostAndVerdict() {
    assertEquals("net      tls-jsse            faults=5/6 written=1000 received=1000 retries=3 reconnects=2"
        + " lost=1.5s elapsed=12.3s REFERENCED=900 UNREFERENCED=100 UNDEFINED=0 CORRUPT=0 PASS",
        outcome(1000, 1000, CLEAN, null).line());
    assertTrue(outcome(1000, 1000, new VerifyResult(900, 99, 1, 0, List.of()), null).line()
        .endsWith(" UNDEFINED=1 CORRUPT=0 FAIL"));
    assertTrue(outcome(1000, 1000, null, "connection refused").line()
        .endsWith("elapsed=12.3s FAIL (connection refused)"), "no counts when nothing was verified");
  }

  @Test
  void aClientThatHidesItsRetriesReportsOnlyTheTimeLost() {
    assertEquals("retries=n/a reconnects=n/a lost=2.0s", FaultTarget.Cost.timeLostOnly(2_000_000_000L).describe());
    RetryCounters.Snapshot counters = new RetryCounters.Snapshot(7, 4, 250_000_000L);
    FaultTarget.Cost cost = FaultTarget.Cost.of(counters);
    assertEquals(OptionalLong.of(7), cost.retries());
    assertEquals(OptionalLong.of(4), cost.reconnects());
    assertEquals("retries=7 reconnects=4 lost=0.3s", cost.describe());
  }

  @Test
  void theRotationStepsComeInTheOrderOfACaRoll() {
    assertEquals(List.of("re-issue from the same CA", "trust both CAs", "re-issue from the next CA"),
        java.util.Arrays.stream(CertificateRotation.Step.values()).map(Object::toString).toList());
  }
}
