package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.ProcessSample;
import io.securethrift.core.SecurityConfig;
import io.securethrift.ingest.bench.IngestBackend.TurnAccount;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.RetryPolicy;
import io.securethrift.ingest.server.IngestServer;
import io.securethrift.ingest.server.ServerModel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Two ingests taking turns against two real servers over loopback: both write everything and verify, they alternate
 * at the asked size, each side's time is its own turns', and a side that fails does not leave the other waiting.
 */
class TakingTurnsTest {
  private static final SecurityConfig PLAIN = SecurityConfig.builder().build();
  private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);
  private static final long PID = ProcessHandle.current().pid();

  /** Two plain servers on loopback and a client for each. */
  private static final class TwoServers implements AutoCloseable {
    final IngestServer a = IngestServer.start(PLAIN, ANY, null, ServerModel.THREADPOOL);
    final IngestServer b = IngestServer.start(PLAIN, ANY, null, ServerModel.THREADPOOL);
    final IngestClient first = new IngestClient(PLAIN, "127.0.0.1", a.port());
    final IngestClient second = new IngestClient(PLAIN, "127.0.0.1", b.port());

    TwoServers() throws Exception {}

    @Override
    public void close() throws Exception {
      first.close();
      second.close();
      a.close();
      b.close();
    }
  }

  private static IngestOptions entries(long entries) {
    return new IngestOptions(entries, 500, 64 * 1024, Duration.ofSeconds(10), 2, 11);
  }

  @Test
  void sidesAlternateAndEachAccountsForItsOwnTurns() throws Exception {
    try (TwoServers s = new TwoServers()) {
      long start = System.nanoTime();
      TurnAccount[] sides = new TakingTurns(s.first, s.second, 2_000, PID).run(entries(10_000));
      long elapsed = System.nanoTime() - start;

      for (TurnAccount side : sides) {
        assertEquals(10_000, side.result().entries(), side.toString());
        assertTrue(side.result().elapsedNanos() > 0 && side.result().clientCpuNanos() >= 0, side.toString());
        ProcessSample client = side.used().client();
        assertTrue(client.cpuNanos() >= 0 && client.gcCount() >= 0 && client.writtenBytes() > 0, side.toString());
        // The server's garbage collection is known only to its own JVM, which is not asked between turns.
        assertEquals(ProcessSample.UNKNOWN, side.used().server().gcCount(), side.toString());
      }
      // Hand-overs at 2,000, 4,000, 6,000 and 8,000 entries; the fifth turn writes the last 2,000 and closes.
      assertEquals(5, sides[0].turns());
      assertEquals(5, sides[1].turns());
      assertTrue(sides[0].result().elapsedNanos() + sides[1].result().elapsedNanos() <= elapsed,
          "each side is timed over its own turns only");
      assertEquals(10_000, s.a.received());
      assertEquals(10_000, s.b.received());
      assertTrue(s.a.verify().passed() && s.b.verify().passed());
    }
  }

  @Test
  void aTurnLongerThanTheIngestRunsTheSidesOneAfterTheOther() throws Exception {
    try (TwoServers s = new TwoServers()) {
      TurnAccount[] sides = new TakingTurns(s.first, s.second, 1_000_000, PID).run(entries(3_000));
      assertEquals(1, sides[0].turns());
      assertEquals(1, sides[1].turns());
      assertEquals(3_000, s.a.received());
      assertEquals(3_000, s.b.received());
    }
  }

  @Test
  void aFailingSideEndsTheRunInsteadOfLeavingTheOtherWaiting() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    try (IngestServer a = IngestServer.start(PLAIN, ANY, null, ServerModel.THREADPOOL);
        IngestClient working = new IngestClient(PLAIN, "127.0.0.1", a.port());
        IngestClient failing = new IngestClient(PLAIN, "127.0.0.1", closedPort, RetryPolicy.NONE)) {
      for (boolean failingFirst : new boolean[] {false, true}) {
        TakingTurns turns = failingFirst ? new TakingTurns(failing, working, 1_000, PID)
            : new TakingTurns(working, failing, 1_000, PID);
        IOException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
            () -> assertThrows(IOException.class, () -> turns.run(entries(5_000))));
        assertTrue(e.getMessage().contains(String.valueOf(closedPort)), e.getMessage());
      }
    }
  }
}
