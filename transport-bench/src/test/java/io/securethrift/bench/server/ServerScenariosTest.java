package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.harness.BenchMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The idle, calls and stall scenarios at toy sizes against one real non-blocking server JVM in mode {@code none}:
 * what each row says about the connections it held, served or was refused, and the calls it counted. A TLS client
 * stands in for connections the server cannot serve.
 */
class ServerScenariosTest {
  private static final BenchMode NONE = ServerModes.MODES.parse("mode", "none");

  @TempDir
  static Path dir;
  private static ServerUnderTest server;
  private static ClientTransportFactory clients;
  private static ClientTransportFactory wrongClients;

  @BeforeAll
  static void startServer() throws Exception {
    BenchMaterial material = BenchMaterial.create(dir);
    server = ServerUnderTest.start(material, NONE, TlsEngine.JSSE, ServerKind.NONBLOCKING,
        ServerBenchOptions.quick().serverHeap("256m"), dir.resolve("server.log"));
    clients = ClientTransportFactory.create(material.client(NONE, TlsEngine.JSSE));
    wrongClients = ClientTransportFactory.create(material.client(ServerModes.TLS, TlsEngine.JSSE));
  }

  @AfterAll
  static void stopServer() {
    if (clients != null) {
      clients.close();
      wrongClients.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theServerJvmReportsItsPortMemoryAndOwnThreads() throws Exception {
    assertTrue(server.port() > 0);
    assertEquals(NONE, server.mode);
    assertEquals(ServerKind.NONBLOCKING, server.kind);
    assertTrue(server.status().rssKb() > 1024, server.status().toString());
    assertTrue(server.serverThreads() >= 1, "the server's own threads, beyond the JVM's: " + server.serverThreads());
    assertTrue(server.serverThreads() < server.status().threads(), "the JVM's threads before the server are not");
    assertTrue(server.heapUsed() > 0);
    assertTrue(server.memoryHeld() > 0);
    assertTrue(server.cost().cpuNanos() > 0, "the server JVM has run");
  }

  @Test
  void idleConnectionsClimbTheLevelsHoldingEveryConnection() throws Exception {
    List<Row> rows = IdleConnections.measure(server, clients, List.of(2, 5));
    assertEquals(List.of("2 conns", "5 conns"), rows.stream().map(Row::load).toList());
    assertEquals(List.of(2.0, 5.0), rows.stream().map(r -> r.get("held")).toList());
    for (Row row : rows) {
      assertEquals(IdleConnections.SCENARIO, row.scenario());
      assertEquals("none", row.mode());
      assertEquals("nonblocking", row.server());
      assertEquals(List.of("held", "rss_kb_per_conn", "heap_kb_per_conn", "server_threads", "rss_mb", "open_per_s"),
          List.copyOf(row.metrics().keySet()));
      assertTrue(Double.isFinite(row.get("rss_kb_per_conn")) && row.get("rss_mb") > 1, row.toString());
      assertTrue(row.get("open_per_s") > 0, row.toString());
    }
  }

  @Test
  void aConnectionThatFailsStopsTheClimbAndNothingHeldHasNoPerConnectionFigure() throws Exception {
    List<Row> rows = IdleConnections.measure(server, wrongClients, List.of(2, 5));
    assertEquals(1, rows.size(), "the climb stops at the first level that failed: " + rows);
    Row row = rows.get(0);
    assertEquals("2 conns", row.load());
    assertEquals(0.0, row.get("held"));
    assertTrue(Double.isNaN(row.get("rss_kb_per_conn")) && Double.isNaN(row.get("heap_kb_per_conn")),
        row.toString());
  }

  @Test
  void closedLoopCallsEveryConnectionAtEverySize() throws Exception {
    // A warm-up and a window long enough that a call completes in it on a loaded machine (CI once saw none in a
    // 150 ms window without warm-up, other modules' tests sharing the two cores).
    List<Row> rows = ClosedLoop.measure(server, clients, 2, List.of(100, 2048), Duration.ofMillis(200),
        Duration.ofMillis(600));
    assertEquals(List.of("2 conns x 100 B", "2 conns x 2 KiB"), rows.stream().map(Row::load).toList());
    for (Row row : rows) {
      assertEquals(ClosedLoop.SCENARIO, row.scenario());
      assertEquals(2.0, row.get("conns_served"), row.toString());
      assertEquals(0.0, row.get("conns_refused"), row.toString());
      assertEquals(0.0, row.get("failed_conns"), row.toString());
      assertTrue(row.get("calls_per_s") > 0, row.toString());
      assertTrue(row.get("p50_ms") > 0 && row.get("p50_ms") <= row.get("p99_ms"), row.toString());
      assertTrue(row.get("server_cpu_us_per_call") >= 0 && row.get("server_switches_per_call") >= 0,
          row.toString());
    }
  }

  @Test
  void refusedConnectionsAreCountedAsRefusedNotAsCalls() throws Exception {
    Row row = ClosedLoop.measure(server, wrongClients, 3, List.of(100), Duration.ZERO, Duration.ofMillis(50))
        .get(0);
    assertEquals(0.0, row.get("conns_served"), row.toString());
    assertEquals(3.0, row.get("conns_refused"), row.toString());
    assertEquals(0.0, row.get("calls_per_s"), row.toString());
    assertTrue(Double.isNaN(row.get("p50_ms")), "no call, no latency");
    assertEquals(0.0, row.get("failed_conns"));
  }

  @Test
  void stalledPeersPressWhileAReaderKeepsCalling() throws Exception {
    Row row = StalledReaders.measure(server, clients, 2, Duration.ofMillis(200));
    assertEquals(StalledReaders.SCENARIO, row.scenario());
    assertEquals("2 peers x 12 x 1 MiB calls, never reading", row.load());
    assertEquals(List.of("held_mb_before", "held_rise_mb", "rss_peak_rise_mb", "peers_closed", "unloaded_p50_ms",
        "p50_ms", "p99_ms", "calls_during"), List.copyOf(row.metrics().keySet()));
    assertTrue(row.get("held_mb_before") > 0, row.toString());
    assertTrue(row.get("rss_peak_rise_mb") >= 0, "a peak is at least where it started: " + row);
    double closed = row.get("peers_closed");
    assertTrue(closed >= 0 && closed <= 2, row.toString());
    assertTrue(row.get("calls_during") >= 1 && row.get("unloaded_p50_ms") > 0, row.toString());
  }
}
