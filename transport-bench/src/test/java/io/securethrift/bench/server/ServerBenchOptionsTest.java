package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.KeyType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** server-bench's sizes: the presets, each setter's check and the message naming its option. */
class ServerBenchOptionsTest {
  @Test
  void quickPresetIsTheFullTableAtSmallSizes() {
    assertEquals("modes [none, tls, sasl-auth, sasl-auth-conf]; servers [nonblocking, nonblocking-inline,"
        + " threadpool-64, threadpool]; idle [50, 100] conns; flood 100 trickling peers + 4 clients; 20 stalled"
        + " peers; calls at 40 and 4 conns, payloads [100, 65536] B; warm-up 300 ms, window 500 ms; handshakes 1 s"
        + " each, 1 rounds, keys [ec], engines [jsse, conscrypt, openssl], servers [nonblocking]; tls engine jsse;"
        + " server -Xmx512m",
        ServerBenchOptions.quick().describe());
    assertFalse(ServerBenchOptions.quick().handshakeWarmUp, "the quick preset skips the uncounted run");
  }

  @Test
  void defaultsAreTheFullRun() {
    ServerBenchOptions o = ServerBenchOptions.defaults();
    assertEquals(List.of(1_000, 5_000, 10_000), o.idleLevels);
    assertEquals(1_000, o.connections);
    assertEquals(Duration.ofSeconds(3), o.window);
    assertTrue(o.handshakeWarmUp);
    assertEquals(List.of("idle", "calls", "flood", "stall", "handshakes"), List.copyOf(o.scenarios));
    assertEquals(200, o.stalledPeers);
    assertEquals(List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT, TlsEngine.OPENSSL), o.handshakeEngines);
    assertEquals(List.of(ServerKind.NONBLOCKING, ServerKind.THREADPOOL), o.handshakeServers);
    assertEquals(List.of(KeyType.RSA, KeyType.EC), o.handshakeKeyTypes);
    assertEquals(4, o.handshakeRounds);
    assertEquals(Path.of("server-bench-results"), o.outputDirectory());
  }

  @Test
  void settersKeepWhatTheyAreGiven(@TempDir Path otherJava) throws IOException {
    Files.createDirectories(otherJava.resolve("bin"));
    Files.createFile(otherJava.resolve("bin").resolve("java")).toFile().setExecutable(true);
    ServerBenchOptions o = ServerBenchOptions.quick().modes(List.of("sasl-auth-conf", "tls"))
        .servers(List.of("threadpool", "nonblocking")).scenarios(List.of("flood", "idle")).idleLevels(List.of(7))
        .floodPeers(3).floodClients(2).stalledPeers(5).connections(9).fewConnections(1).payloads(List.of(1, 2))
        .warmUp(Duration.ZERO).window(Duration.ofMillis(1)).handshakeSeconds(2).handshakeRounds(3)
        .handshakeServers(List.of("threadpool")).handshakeKeyTypes(List.of("RSA", "ec")).engine("conscrypt")
        .handshakeEngines(List.of("openssl", "jsse"))
        .serverHeap("1G").serverJava(otherJava).openssl("/opt/openssl")
        .out(Path.of("x"));
    assertEquals("modes [sasl-auth-conf, tls]; servers [threadpool, nonblocking]; idle [7] conns; flood 3 trickling"
        + " peers + 2 clients; 5 stalled peers; calls at 9 and 1 conns, payloads [1, 2] B; warm-up 0 ms, window 1 ms;"
        + " handshakes 2 s each, 3 rounds, keys [rsa, ec], engines [openssl, jsse], servers [threadpool]; tls engine"
        + " conscrypt; server -Xmx1G on " + otherJava,
        o.describe());
    assertEquals(List.of("flood", "idle"), List.copyOf(o.scenarios), "in the order given");
    assertEquals("/opt/openssl", o.openssl);
    assertEquals(Path.of("x"), o.outputDirectory());
  }

  @Test
  void everyRefusalNamesItsOptionAndTheValue() {
    ServerBenchOptions o = ServerBenchOptions.quick();
    refused("--modes: 'tls-jsse' is not a mode server-bench runs; it runs none, tls, sasl-auth, sasl-auth-conf",
        () -> o.modes(List.of("none", "tls-jsse")));
    refused("--servers: 'netty' is not a server; one of nonblocking, nonblocking-inline, threadpool-64, threadpool",
        () -> o.servers(List.of("netty")));
    refused("--scenarios: 'handshake' is not a scenario; one of idle, calls, flood, stall, handshakes",
        () -> o.scenarios(List.of("idle", "handshake")));
    refused("--idle-connections: must be at least 1, got 0", () -> o.idleLevels(List.of(10, 0)));
    refused("--flood-peers: must be at least 1, got 0", () -> o.floodPeers(0));
    refused("--flood-clients: must be at least 1, got -1", () -> o.floodClients(-1));
    refused("--stalled-peers: must be at least 1, got 0", () -> o.stalledPeers(0));
    refused("--connections: must be at least 1, got 0", () -> o.connections(0));
    refused("--few-connections: must be at least 1, got 0", () -> o.fewConnections(0));
    refused("--payloads: must be at least 1, got -5", () -> o.payloads(List.of(-5)));
    refused("--handshake-seconds: must be at least 1, got 0", () -> o.handshakeSeconds(0));
    refused("--handshake-rounds: must be at least 1, got 0", () -> o.handshakeRounds(0));
    refused("--handshake-servers: 'netty' is not a server; one of nonblocking, nonblocking-inline, threadpool-64,"
        + " threadpool", () -> o.handshakeServers(List.of("netty")));
    refused("--handshake-key-types: 'dsa' is not a key type; one of rsa, ec",
        () -> o.handshakeKeyTypes(List.of("ec", "dsa")));
    refused("--handshake-key-types: 'rsa_1024' is not a key type; one of rsa, ec",
        () -> o.handshakeKeyTypes(List.of("rsa_1024")));
    refused("--window-ms: must be positive, got 0", () -> o.window(Duration.ZERO));
    refused("--window-ms: must be positive, got -2", () -> o.window(Duration.ofMillis(-2)));
    refused("--server-heap: '512 m' is not a heap size such as 512m or 1g", () -> o.serverHeap("512 m"));
    refused("--server-heap: '1t' is not a heap size such as 512m or 1g", () -> o.serverHeap("1t"));
    refused("--server-java: '/nonexistent/jdk' is not a Java home: it has no executable bin/java; give the directory"
        + " above bin/java of a Java 11 or later runtime", () -> o.serverJava(Path.of("/nonexistent/jdk")));
    refused("--tls-engine: 'boringssl' is not accepted; accepted values: auto, conscrypt, jsse, openssl (an engine"
        + " is contributed by the module that has it: conscrypt and openssl by securethrift-tls)",
        () -> o.engine("boringssl"));
    refused("--handshake-engines: 'auto' names no engine; list engines such as jsse,openssl",
        () -> o.handshakeEngines(List.of("jsse", "auto")));
    assertEquals("modes [none, tls, sasl-auth, sasl-auth-conf]; servers [nonblocking, nonblocking-inline,"
        + " threadpool-64, threadpool]; idle [50, 100] conns; flood 100 trickling peers + 4 clients; 20 stalled"
        + " peers; calls at 40 and 4 conns, payloads [100, 65536] B; warm-up 300 ms, window 500 ms; handshakes 1 s"
        + " each, 1 rounds, keys [ec], engines [jsse, conscrypt, openssl], servers [nonblocking]; tls engine jsse;"
        + " server -Xmx512m", o.describe(),
        "a refused value changes nothing");
  }

  @Test
  void heapSizesInTheJvmsGrammarAreAccepted() {
    for (String heap : List.of("512m", "2g", "1048576", "64K", "4M")) {
      assertEquals(heap, ServerBenchOptions.quick().serverHeap(heap).serverHeap);
    }
  }

  private static void refused(String message, Executable setter) {
    assertEquals(message, assertThrows(ConfigException.class, setter).getMessage());
  }
}
