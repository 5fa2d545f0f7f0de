package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.bench.IngestBackend.TurnAccount;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker JVMs' commands and answers survive the line they travel on: every record is encoded, parsed back as the
 * other JVM would, and read with the protocol's own accessors, so what the benchmark counts is what the worker sent.
 */
class WorkerProtocolTest {
  private static final IngestOptions OPTIONS = new IngestOptions(500_000, 10_000, 500_000, Duration.ofMillis(1500),
      3, 42, Duration.ZERO);

  /** What the other end of the pipe reads. */
  private static LineRecord overTheWire(LineRecord r) {
    return LineRecord.parse(r.encode());
  }

  @Test
  void ingestOptionsRoundTripWithEveryField() {
    LineRecord command = overTheWire(WorkerProtocol.ingest(OPTIONS));
    assertEquals(WorkerProtocol.INGEST, command.kind());
    assertEquals(OPTIONS, WorkerProtocol.options(command));
    assertFalse(WorkerProtocol.inTurns(command), "a plain INGEST takes no turns");
    assertFalse(WorkerProtocol.baseline(command), "and goes to the secured side");

    IngestOptions timeBased = new IngestOptions(0, 1000, 256 * 1024, Duration.ofSeconds(1), 1, -7,
        Duration.ofSeconds(12));
    IngestOptions back = WorkerProtocol.options(overTheWire(WorkerProtocol.ingest(timeBased)));
    assertEquals(timeBased, back);
    assertTrue(back.timeBased());
  }

  @Test
  void thePlaintextCommandTurnsThePortTlsOnlyOnlyWhenAskedAndItsAccountRoundTrips() {
    LineRecord read = overTheWire(WorkerProtocol.plaintext(false));
    assertEquals(WorkerProtocol.PLAINTEXT, read.kind());
    assertFalse(WorkerProtocol.tlsOnly(read), "a read leaves the switch alone");
    assertTrue(WorkerProtocol.tlsOnly(overTheWire(WorkerProtocol.plaintext(true))));
    TlsRollout.Port port = new TlsRollout.Port(17, 1, false);
    assertEquals(port, WorkerProtocol.port(overTheWire(WorkerProtocol.port(port))));
  }

  @Test
  void durationsTravelInWholeMilliseconds() {
    IngestOptions fine = new IngestOptions(10, 1, 1024, Duration.ofNanos(2_999_999), 1, 1, Duration.ofNanos(1_500_000));
    IngestOptions back = WorkerProtocol.options(overTheWire(WorkerProtocol.ingest(fine)));
    assertEquals(Duration.ofMillis(2), back.maxLatency());
    assertEquals(Duration.ofMillis(1), back.duration());
  }

  @Test
  void ingestInTurnsCarriesTheTurnsServerAndOrder() {
    LineRecord command = overTheWire(WorkerProtocol.ingestInTurns(OPTIONS, 100_000, 4321, true));
    assertTrue(WorkerProtocol.inTurns(command));
    assertEquals(100_000, WorkerProtocol.turnEntries(command));
    assertEquals(4321, WorkerProtocol.serverPid(command));
    assertTrue(WorkerProtocol.baselineFirst(command));
    assertEquals(OPTIONS, WorkerProtocol.options(command), "the workload is the plain INGEST's");
    assertFalse(WorkerProtocol.baselineFirst(overTheWire(WorkerProtocol.ingestInTurns(OPTIONS, 1, 1, false))));
  }

  @Test
  void aCommandForTheBaselineIsMarkedAndOthersAreNot() {
    LineRecord reset = overTheWire(WorkerProtocol.toBaseline(LineRecord.of(WorkerProtocol.RESET)));
    assertEquals(WorkerProtocol.RESET, reset.kind());
    assertTrue(WorkerProtocol.baseline(reset));
    assertFalse(WorkerProtocol.baseline(overTheWire(LineRecord.of(WorkerProtocol.VERIFY))));
    assertFalse(WorkerProtocol.baseline(LineRecord.parse("VERIFY baseline=false")));
  }

  @Test
  void resultRoundTripsEveryCounter() {
    IngestResult result = new IngestResult(31_000, 2_945_000, 1_234_567_890L, 987_654_321L);
    LineRecord answer = overTheWire(WorkerProtocol.result(result));
    assertEquals("RESULT", answer.kind());
    assertEquals(result, WorkerProtocol.result(answer));
  }

  @Test
  void verifiedRoundTripsTheCountsExamplesAndReceivedEntries() {
    VerifyResult lost = new VerifyResult(30_000, 1001, 2, 3, List.of("0000000000000098", "0000000000000099"));
    LineRecord answer = overTheWire(WorkerProtocol.verified(lost, 31_004));
    assertEquals("VERIFIED", answer.kind());
    assertEquals(lost, WorkerProtocol.verified(answer));
    assertFalse(WorkerProtocol.verified(answer).passed());
    assertEquals(31_004, WorkerProtocol.received(answer));
    assertTrue(WorkerProtocol.aesGcmNegotiations(answer) >= 0, "the server JVM's count is always sent");

    VerifyResult clean = new VerifyResult(5, 1, 0, 0, List.of());
    LineRecord cleanAnswer = overTheWire(WorkerProtocol.verified(clean, 6));
    assertEquals(clean, WorkerProtocol.verified(cleanAnswer), "no examples read back as none, not one empty one");
    assertTrue(WorkerProtocol.verified(cleanAnswer).passed());
  }

  @Test
  void turnsRoundTripEachSidesResultSamplesAndTurnCount() {
    ProcessSample securedClient = new ProcessSample(900_000_000, 800_000_000, 100_000_000, 1_000, 120_000_000, 2, 5,
        150_000_000);
    ProcessSample securedServer = new ProcessSample(450_000_000, 400_000_000, 50_000_000, 120_000_000, 1_000,
        ProcessSample.UNKNOWN, ProcessSample.UNKNOWN, 50_000_000);
    ProcessSample baselineClient = new ProcessSample(700_000_000, 650_000_000, 50_000_000, 900, 100_000_000, 1, 3,
        ProcessSample.UNKNOWN);
    ProcessSample baselineServer = ProcessSample.unknown();
    TurnAccount secured = new TurnAccount(new IngestResult(500_000, 47_500_000, 600_000_000, 900_000_000),
        new TargetSample(securedClient, securedServer), 5);
    TurnAccount baseline = new TurnAccount(new IngestResult(500_000, 47_500_000, 500_000_000, 700_000_000),
        new TargetSample(baselineClient, baselineServer), 6);

    LineRecord answer = overTheWire(WorkerProtocol.turns(secured, baseline));

    assertEquals(WorkerProtocol.TURNS, answer.kind());
    assertEquals(secured, WorkerProtocol.securedSide(answer));
    assertEquals(baseline, WorkerProtocol.baselineSide(answer));
    assertEquals(ProcessSample.UNKNOWN, WorkerProtocol.baselineSide(answer).used().server().cpuNanos(),
        "an unknown side stays unknown, not zero");
  }

  @Test
  void aTurnsClientCpuIsTheClientSampleOfItsTurns() {
    // The answer carries the client's CPU once, in its sample; the result's clientCpuNanos is read from there.
    ProcessSample client = new ProcessSample(300, 200, 100, 0, 0, 0, 0, 0);
    TurnAccount side = new TurnAccount(new IngestResult(10, 100, 1000, 999),
        new TargetSample(client, ProcessSample.ZERO), 1);
    TurnAccount back = WorkerProtocol.securedSide(overTheWire(WorkerProtocol.turns(side, side)));
    assertEquals(300, back.result().clientCpuNanos());
    assertEquals(new IngestResult(10, 100, 1000, 300), back.result());
  }

  @Test
  void gcAnswerIsThisJvmsCollectionsSoFar() {
    long[] before = ProcessSample.gcTotals();
    LineRecord gc = overTheWire(WorkerProtocol.gc());
    assertEquals("GC", gc.kind());
    assertTrue(gc.getLong("count") >= before[0], gc.encode());
    assertTrue(gc.getLong("millis") >= before[1], gc.encode());
    ProcessSample self = WorkerProtocol.sample(ProcessHandle.current().pid(), LineRecord.parse("GC count=7 millis=11"));
    assertEquals(7, self.gcCount());
    assertEquals(11, self.gcMillis());
  }

  @Test
  void aMissingFieldIsNamedWithTheLine() {
    LineRecord partial = LineRecord.parse("RESULT entries=1 bytes=2 elapsedNanos=3");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkerProtocol.result(partial));
    assertEquals("RESULT record has no field 'clientCpuNanos': RESULT entries=1 bytes=2 elapsedNanos=3",
        e.getMessage());
    LineRecord garbled = LineRecord.parse("VERIFIED referenced=x");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> WorkerProtocol.verified(garbled)).getMessage()
        .startsWith("VERIFIED record's field 'referenced' is not an integer"));
  }
}
