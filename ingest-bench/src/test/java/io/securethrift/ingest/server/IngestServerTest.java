package io.securethrift.ingest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The embedded backend end to end over real loopback sockets: ingest, verify by scanning back, reset. */
class IngestServerTest {
  private static final SecurityConfig PLAIN = SecurityConfig.builder().build();

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(ServerModel.class)
  void ingestedWorkloadVerifiesAndResetEmptiesTheTable(ServerModel model) throws Exception {
    Path wal = dir.resolve("ingest.wal");
    try (IngestServer server = IngestServer.start(PLAIN, new InetSocketAddress("127.0.0.1", 0), wal, model);
        IngestClient client = new IngestClient(PLAIN, "127.0.0.1", server.port())) {
      // One full linked-list cycle (26F - 1 entries, relink included), then heads and four levels of the next:
      // the generator stops at the first flush boundary at or past the count, as Accumulo's does.
      IngestResult result = client.ingest(new IngestOptions(30_000, 1000, 64 * 1024, Duration.ofSeconds(5), 3, 7));
      assertEquals(25_999 + 5_000, result.entries());
      assertTrue(result.bytes() > 30_000L * 90, "row, columns and value bytes counted: " + result.bytes());
      assertTrue(result.elapsedNanos() > 0 && result.clientCpuNanos() > 0 && client.serverCpuNanos() > 0);
      assertTrue(Files.size(wal) > result.bytes(), "every batch reached the write-ahead log");

      // The benchmark's check, in the server's process over every entry it received (the rewritten heads' first
      // versions included, which point nowhere), counts the rows as the scan back does.
      VerifyResult inServer = server.verify();
      assertEquals(result.entries(), server.received());
      VerifyResult verified = client.verify();
      assertEquals(verified, inServer);
      assertTrue(verified.passed(), verified.toString());
      assertEquals(0, verified.corrupt());
      // The relink rewrote 999 heads in place (same key, newest value wins), so the table holds 30,000 rows. The
      // full cycle leaves one row unreferenced; the partial one leaves its last level's 1,000 rows unreferenced.
      assertEquals(1 + 1000, verified.unreferenced(), verified.toString());
      assertEquals(30_999 - 999 - 1001, verified.referenced(), verified.toString());

      client.reset();
      assertEquals(new VerifyResult(0, 0, 0, 0, java.util.List.of()), client.verify());
      assertEquals(0, server.received());
      client.ingest(new IngestOptions(1000, 1000, 64 * 1024, Duration.ofSeconds(5), 3, 7));
      server.reset();
      assertEquals(new VerifyResult(0, 0, 0, 0, java.util.List.of()), server.verify());
      assertEquals(0, server.received());
      // What ingest-server prints at shutdown: every connection so far completed its (plain) handshake.
      AuthCounters counters = server.counters().orElseThrow();
      assertTrue(counters.successes() > 0 && counters.failures() == 0, counters.toString());
      assertTrue(counters.toString().startsWith("successes=" + counters.successes() + " (none="), counters.toString());
    }
  }
}
