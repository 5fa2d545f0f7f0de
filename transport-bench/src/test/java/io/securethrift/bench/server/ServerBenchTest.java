package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick preset of server-bench end to end: real server JVMs, real connections, real openssl. It checks that every
 * row is there with numbers, and the one comparison a quick run decides: the non-blocking server holds idle
 * connections with fewer threads than the uncapped thread-pool server, which needs one each.
 */
class ServerBenchTest {
  @TempDir
  Path out;

  @Test
  void quickRunHasEveryRowWithRealFigures() throws Exception {
    // One mode keeps the test short; every scenario and server runs, and mode tls runs in the handshake scenario.
    ServerBenchOptions options = ServerBenchOptions.quick().modes(List.of("sasl-auth")).out(out);
    ServerBenchReport report = ServerBench.run(options, System.err);
    List<Map<String, Object>> rows = report.rows();

    // idle: 2 levels x 3 servers (the capped server's row at 100 says it held 64).
    assertEquals(6, count(rows, "idle"), report.table());
    // calls: 2 sizes x (4 servers at many connections + 3 at few); the inline server runs only these.
    assertEquals(14, count(rows, "calls"), report.table());
    assertEquals(3, count(rows, "flood"), report.table());
    // handshakes, mutually authenticated, EC keys: 2 versions x 4 servers (openssl s_server, and jsse, conscrypt and
    // the openssl engine on the non-blocking server) x full and resumed; every resumed handshake resumed, on every
    // engine and version.
    assertEquals(16, count(rows, "handshakes"), report.table());
    for (Map<String, Object> row : rows) {
      if (row.get("scenario").equals("handshakes")) {
        assertEquals(row.get("load").equals("full") ? 0.0 : 100.0, row.get("resumed_pct"), report.table());
        assertEquals(row.get("server").equals("openssl") && row.get("load").equals("full"),
            Double.isNaN((double) row.get("ratio")), "a ratio to openssl, or to full: " + row);
      }
    }
    for (Map<String, Object> row : rows) {
      for (Map.Entry<String, Object> figure : row.entrySet()) {
        if (figure.getValue() instanceof Double d) {
          // One round has no interval about its ratio.
          assertTrue(Double.isFinite(d) || figure.getKey().startsWith("p") || figure.getKey().endsWith("vs_unloaded")
              || figure.getKey().startsWith("ratio"),
              "row " + row + " has no number for " + figure.getKey());
        }
      }
    }
    Map<String, Object> netty = idleAt(rows, "sasl-auth", "nonblocking", 100);
    Map<String, Object> pool = idleAt(rows, "sasl-auth", "threadpool", 100);
    Map<String, Object> capped = idleAt(rows, "sasl-auth", "threadpool-64", 100);
    assertEquals(100.0, netty.get("held"), netty.toString());
    assertEquals(100.0, pool.get("held"), pool.toString());
    assertEquals(64.0, capped.get("held"), "the 65th connection is closed: " + capped);
    assertTrue((double) pool.get("server_threads") >= 100, "a thread per connection: " + pool);
    assertTrue((double) netty.get("server_threads") < 32, "a few threads for all: " + netty);
    // The flood holds the capped server's 64 workers: legitimate clients fail there and are served here.
    assertEquals(100.0, floodOn(rows, "nonblocking").get("success_pct"), report.table());
    assertTrue((double) floodOn(rows, "threadpool-64").get("success_pct") < 100, report.table());
    // Every goal has a verdict and each scenario has goals.
    assertTrue(report.goals().size() >= 1 + 1 + 4 + 6, report.table());
    for (String file : List.of("server-bench.csv", "server-bench.json", "server-bench.html")) {
      assertTrue(Files.size(report.write(out).get(0).getParent().resolve(file)) > 100, file);
    }
    String html = Files.readString(out.resolve("server-bench.html"));
    assertEquals(4, html.split("<svg ", -1).length - 1, "a chart per scenario");
  }

  /**
   * The stall scenario on real server JVMs, at the quick preset's 20 peers: each server model holds well under the
   * goal, closes peers once their replies pass the pending-replies bound, and serves the reading client throughout.
   */
  @Test
  void stalledPeersAreBoundedOnBothServerModels() throws Exception {
    ServerBenchOptions options = ServerBenchOptions.quick().modes(List.of("none")).scenarios(List.of("stall"))
        .servers(List.of("nonblocking", "threadpool")).out(out);
    ServerBenchReport report = ServerBench.run(options, System.err);
    assertEquals(2, count(report.rows(), "stall"), report.table());
    for (Map<String, Object> row : report.rows()) {
      assertTrue((double) row.get("held_rise_mb") < Goals.MAX_STALL_HELD_MB, report.table());
      assertTrue((double) row.get("calls_during") > 0, "the reading client was served: " + row);
    }
    assertEquals(List.of(true, true), List.copyOf(report.goals().values()), report.table());
    report.write(out);
    assertEquals(1, Files.readString(out.resolve("server-bench.html")).split("<svg ", -1).length - 1, "its chart");
  }

  private static long count(List<Map<String, Object>> rows, String scenario) {
    return rows.stream().filter(r -> r.get("scenario").equals(scenario)).count();
  }

  private static Map<String, Object> floodOn(List<Map<String, Object>> rows, String server) {
    return rows.stream().filter(r -> r.get("scenario").equals("flood") && r.get("server").equals(server))
        .findFirst().orElseThrow();
  }

  private static Map<String, Object> idleAt(List<Map<String, Object>> rows, String mode, String server, int level) {
    List<Map<String, Object>> found = rows.stream().filter(r -> r.get("scenario").equals("idle")
        && r.get("mode").equals(mode) && r.get("server").equals(server) && r.get("load").equals(level + " conns"))
        .collect(Collectors.toList());
    assertEquals(1, found.size(), mode + " " + server + " " + level);
    return found.get(0);
  }
}
