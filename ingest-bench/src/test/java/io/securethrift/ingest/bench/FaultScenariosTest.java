package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.bench.FaultBench.Outcome;
import io.securethrift.ingest.server.ServerModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each fault of {@code ingest-bench --faults} as an integration test on the embedded backend with its write-ahead
 * log: a real server JVM (killed with SIGKILL in the restart runs), a real KDC and CA, the fault proxy in between.
 * Short runs; each fault in the modes where it bites (ingest-bench --faults runs every mode), on the thread-pool
 * server and, for every fault, on the non-blocking one.
 */
class FaultScenariosTest {

  @TempDir
  Path dir;

  @ParameterizedTest(name = "{0} in {1} on {2}")
  @CsvSource({
      "restart, none, threadpool",
      "restart, sasl-auth-conf, threadpool",
      "rotate, tls-jsse, threadpool",
      "rotate, sasl-over-tls, threadpool",
      "expire, sasl-auth, threadpool",
      "kdc, sasl-auth-int, threadpool",
      "net, tls-conscrypt, threadpool",
      "net, sasl-auth-conf-gcm, threadpool",
      "restart, sasl-auth-conf, nonblocking",
      "rotate, tls-conscrypt, nonblocking",
      "expire, sasl-auth-int, nonblocking",
      "kdc, sasl-auth, nonblocking",
      "net, sasl-over-tls, nonblocking",
  })
  void faultEndsWithNothingLostOrDamaged(String fault, String mode, String server) throws Exception {
    Outcome outcome = shortRun(fault, mode, server, Map.of());
    assertTrue(outcome.passed(), outcome.line());
    // Every fault cuts or kills the connections in use, so once one has landed mid-run the client must have retried
    // on new ones. (On a machine starved enough that the run ended before its first fault, there is nothing to see.)
    assertTrue(outcome.landed() == 0
        || outcome.cost().retries().getAsLong() > 0 && outcome.cost().reconnects().getAsLong() > 0,
        "the fault must have cost retries: " + outcome.line());
    System.out.println(outcome.line());
  }

  /**
   * {@code ingest-bench --faults net --backend-option securethrift.server.connection.max.age=1s --backend-option
   * securethrift.client.connection.max.age=600ms}: every connection is replaced several times in the run, on top of
   * the fault, and still every acknowledged entry is there, once.
   */
  @ParameterizedTest(name = "{0} in {1} on {2}")
  @CsvSource({
      "net, sasl-auth-conf, threadpool",
      "net, tls-jsse, nonblocking",
  })
  void aShortConnectionMaxAgeLosesNothing(String fault, String mode, String server) throws Exception {
    Outcome outcome = shortRun(fault, mode, server, Map.of(
        "securethrift.server.connection.max.age", "1s", "securethrift.client.connection.max.age", "600ms"));
    assertTrue(outcome.passed(), outcome.line());
    System.out.println(outcome.line());
  }

  /**
   * {@code ingest-bench --faults tls-on}: the client writes in plaintext while the server restarts on a unified port,
   * moves to mutual TLS, and the server turns TLS only without a restart; nothing acknowledged is lost, the unified
   * port served (and counted) the plaintext connections, and a plaintext client is refused and audited at the end.
   */
  @ParameterizedTest(name = "tls-on in {0} on {1}")
  @CsvSource({
      "tls-jsse, threadpool",
      "tls-conscrypt, nonblocking",
  })
  void mutualTlsTurnedOnOneProcessAtATimeLosesNothing(String mode, String server) throws Exception {
    Outcome outcome = shortRun("tls-on", mode, server, Map.of());
    System.out.println(outcome.line());
    assertTrue(outcome.passed(), outcome.line());
    TlsRollout.Check check = outcome.tlsOn();
    assertTrue(check.servedWhileUnified() > 0, "plaintext counted while unified: " + outcome.line());
    assertEquals(check.servedWhileUnified(), check.servedAtEnd(), "no plaintext once TLS only: " + outcome.line());
    assertTrue(check.probeRefused(), "the plaintext client refused: " + outcome.line());
    assertTrue(check.refusedAtEnd() >= 1, "the refusal audited: " + outcome.line());
    assertTrue(outcome.landed() == 0
        || outcome.cost().retries().getAsLong() > 0 && outcome.cost().reconnects().getAsLong() > 0,
        "the restart and the cut must have cost retries: " + outcome.line());
  }

  /** A five-second run of {@code fault} with {@code options} as backend options. */
  private Outcome shortRun(String fault, String mode, String server, Map<String, String> options) throws Exception {
    Fault f = Fault.parseList("fault", List.of(fault)).get(0);
    FaultBench.Settings settings = new FaultBench.Settings(Duration.ofSeconds(5), 500, 128 * 1024, 3,
        FaultBench.Settings.DEFAULT.retry(), ServerModel.parse("server", server));
    return FaultBench.run(new EmbeddedFaults(), mode, f, dir, settings, 42, options);
  }
}
