package io.securethrift.zkbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.StoppingRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** zk-bench's settings checked on construction, each refusal naming its option, and the shapes they run. */
class ZkSettingsTest {
  private static final List<BenchMode> JSSE = ZkModes.JSSE;

  @Test
  void everyRefusalNamesItsOption() {
    refused("--shapes: name each shape once, at least one: []", () -> settings(List.of(), JSSE, 1, 1, 0, 1, 0));
    refused("--shapes: name each shape once, at least one: [client-tls, client-tls]",
        () -> settings(List.of(Shape.CLIENT_TLS, Shape.CLIENT_TLS), JSSE, 1, 1, 0, 1, 0));
    refused("--modes: must include none, the baseline of every overhead",
        () -> settings(List.of(Shape.CLIENT_TLS), List.of(JSSE.get(1)), 1, 1, 0, 1, 0));
    refused("--modes: leaves shape quorum-tls only the baseline; it runs [none, tls12-jsse, tls13-jsse]",
        () -> settings(List.of(Shape.CLIENT_TLS, Shape.QUORUM_TLS), List.of(ZkModes.NONE,
            ZkModes.ALL.parse("--modes", "tls12-openssl")), 1, 1, 0, 1, 0));
    refused("--znodes: 0 is less than 1", () -> settings(List.of(Shape.BOTH), JSSE, 0, 1, 0, 1, 0));
    refused("--sync-znodes: 0 is less than 1", () -> settings(List.of(Shape.BOTH), JSSE, 1, 0, 0, 1, 0));
    refused("--sessions: -1 is less than 0", () -> settings(List.of(Shape.BOTH), JSSE, 1, 1, -1, 1, 0));
    refused("--forks: 0 is outside 1 to 4", () -> settings(List.of(Shape.BOTH), JSSE, 1, 1, 0, 0, 0));
    refused("--forks: 5 is outside 1 to 4", () -> settings(List.of(Shape.BOTH), JSSE, 1, 1, 0, 5, 0));
    refused("--warmup-rounds: -1 is less than 0", () -> settings(List.of(Shape.BOTH), JSSE, 1, 1, 0, 1, -1));
  }

  @Test
  void theSmallestValidSettingsAreAccepted() {
    ZkSettings s = settings(List.of(Shape.QUORUM_TLS), List.of(JSSE.get(2), ZkModes.NONE), 1, 1, 0, 4, 0);
    assertEquals(4, s.forks(Shape.QUORUM_TLS));
    assertEquals(1, s.forks(Shape.CLIENT_TLS), "client-tls always runs its modes and baseline in one ensemble");
    assertEquals(List.of(ZkModes.NONE, JSSE.get(2)), s.modes(Shape.QUORUM_TLS), "the shape's order, none first");
  }

  @Test
  void settingsRecordEveryValueByItsOptionsName() {
    ZkSettings s = settings(List.of(Shape.QUORUM_TLS, Shape.CLIENT_TLS), JSSE, 2500, 100, 5, 2, 2);
    Map<String, Object> m = s.toMap();
    assertEquals("{shapes=quorum-tls,client-tls, modes=none,tls12-jsse,tls13-jsse, znodes=2500, syncZnodes=100,"
        + " sessions=5, forks=2, rounds=3, warmupRounds=2}", m.toString());
  }

  @Test
  void describeCountsOperationsAndStatesTheForksWarmUpAndRule() {
    assertEquals("zk-bench: 2,500 znodes of 100 bytes per asynchronous phase (27,500 operations), 400 synchronous"
        + " requests, 5 fresh sessions per iteration; 2 ensembles per quorum-TLS mode taking the rounds in turn;"
        + " 2 warm-up rounds, then 3 rounds; Netty client and servers, each in its own JVM, mutual TLS",
        settings(List.of(Shape.QUORUM_TLS), JSSE, 2500, 100, 5, 2, 2).describe());
    String one = new ZkSettings(List.of(Shape.CLIENT_TLS), JSSE, 10, 1, 0, 1, ZkSettings.DEFAULT_STOPPING, 0,
        Path.of("out")).describe();
    assertTrue(one.contains("; one ensemble per mode; no warm-up, then rounds until every wall and CPU interval is"
        + " within +/-3.0 points (at least 5) or 420 s have passed;"), one);
    assertTrue(one.contains("(110 operations), 4 synchronous requests, 0 fresh sessions"), one);
  }

  @Test
  void shapesAreReadByLabelAndDescribeWhereTlsGoes() {
    assertEquals(Shape.BOTH, Shape.of("both"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shape.of("quorum"));
    assertEquals("'quorum' is not a shape; accepted: client-tls, quorum-tls, both", e.getMessage());
    assertEquals("client-tls: 1 standalone server, TLS on the client port, fsync off (forceSync=no)",
        Shape.CLIENT_TLS.describe());
    assertEquals("quorum-tls: 3 servers, TLS between servers only, plaintext clients, fsync on (forceSync=yes)",
        Shape.QUORUM_TLS.describe());
    assertEquals("both: 3 servers, TLS on the client port and between servers, fsync on (forceSync=yes)",
        Shape.BOTH.describe());
    assertTrue(Shape.CLIENT_TLS.clientTls() && !Shape.CLIENT_TLS.quorumTls() && !Shape.CLIENT_TLS.fsync());
    assertFalse(Shape.QUORUM_TLS.clientTls());
    assertEquals(3, Shape.BOTH.servers());
    assertEquals(ZkModes.ALL.all(), Shape.BOTH.modes());
    assertEquals(List.of("none", "tls12-jsse", "tls13-jsse"), Shape.QUORUM_TLS.modes().stream().map(BenchMode::name)
        .toList());
    assertEquals("quorum-tls", ZkReport.PUBLISHED_SHAPE);
  }

  private static ZkSettings settings(List<Shape> shapes, List<BenchMode> modes, int znodes, int syncZnodes,
      int sessions, int forks, int warmupRounds) {
    return new ZkSettings(shapes, modes, znodes, syncZnodes, sessions, forks, StoppingRule.fixed(3), warmupRounds,
        Path.of("out"));
  }

  private static void refused(String message, Executable make) {
    assertEquals(message, assertThrows(ConfigException.class, make).getMessage());
  }
}
