package io.securethrift.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.AuditFormat;
import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.ServerCountersJmx;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The audit's layouts, its counters and the main log's rate limit. The server test runs a real plain-mode server; the
 * rate limit runs on a clock the test moves, since a minute is too long to wait.
 */
class HandshakeAuditTest {
  private static final String AUDIT = " " + HandshakeAudit.LOGGER_NAME + " - ";
  private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 50312);

  @Test
  void plainServerWritesOneJsonLinePerConnection() throws Exception {
    SecurityConfig json = SecurityConfig.fromProperties(Map.of("securethrift.audit.format", "json"));
    assertEquals(AuditFormat.JSON, json.auditFormat());
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(json);
        EchoServer server = EchoServer.start(factory);
        ClientTransportFactory client = ClientTransportFactory.create(SecurityConfig.builder().build());
        SecuredTransport transport = client.open("127.0.0.1", server.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 10);
      String line = log.awaitLines(AUDIT, 1, Duration.ofSeconds(30)).get(0);
      String audit = line.substring(line.indexOf(AUDIT) + AUDIT.length());
      assertTrue(audit.matches("\\{\"event\":\"auth\",\"outcome\":\"success\",\"peer\":\"/127\\.0\\.0\\.1:\\d+\","
          + "\"mode\":\"none\",\"principal\":null,\"subject\":null,\"mechanism\":null,\"qop\":null,"
          + "\"sasl_cipher\":null,\"tls_protocol\":null,\"tls_suite\":null,\"tls_resumed\":null,"
          + "\"handshake_ms\":\\d+}"), audit);
      assertEquals(Map.of("none", 1L), factory.counters().successesByProtection());
    }
  }

  @Test
  void aListeningServersCountersAreInJmxUntilItStops() throws Exception {
    MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
    ObjectName name;
    try (ServerTransportFactory factory = ServerTransportFactory.create(SecurityConfig.builder().build());
        EchoServer server = EchoServer.start(factory);
        ClientTransportFactory client = ClientTransportFactory.create(SecurityConfig.builder().build());
        SecuredTransport transport = client.open("127.0.0.1", server.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 10);
      name = ServerCountersJmx.name(server.port());
      ServerCountersMXBean counters = JMX.newMXBeanProxy(mbeans, name, ServerCountersMXBean.class);
      Await.until("counters.getHandshakeSuccesses() == 1", Duration.ofSeconds(30),
          () -> counters.getHandshakeSuccesses() == 1);
      assertEquals(Map.of("none", 1L), counters.getHandshakeSuccessesByProtection());
      assertEquals(0L, counters.getHandshakeFailures());
      assertEquals(0L, counters.getHandshakeFailuresByCause().get("timeout"));
      assertEquals(-1, counters.getOpenConnections(), "the thread-pool server counts threads, not connections");
    }
    assertFalse(mbeans.isRegistered(name), "unregistered with the listening socket");
  }

  @Test
  void unknownFormatIsRefusedNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SecurityConfig.fromProperties(Map.of("securethrift.audit.format", "xml")));
    assertEquals("securethrift.audit.format", e.key());
    assertTrue(e.problem().contains("text, json"), e.problem());
  }

  /**
   * The peer's text is escaped by PeerText once (its line break as {@code \n}, its own backslash as {@code \\}), then
   * quoted by the layout (JSON, or a quoted key=value, each doubling the backslashes again), which a reader undoes. A
   * layer's raw exception and a HandshakeFailure whose message the layer escaped give the same line: escaped once,
   * not twice.
   */
  @Test
  void peerTextIsEscapedOnceAndQuotedInBothLayouts() throws Exception {
    String hostile = "bad \"name\"\n[main] WARN forged \\ line";
    List<Throwable> failures = List.of(new IOException(hostile),
        new HandshakeFailure(AuthFailure.SASL_BAD, PeerText.sanitize(hostile), null));
    for (AuditFormat format : AuditFormat.values()) {
      for (Throwable failure : failures) {
        HandshakeAudit audit = new HandshakeAudit(SecurityConfig.builder().mode(SecurityMode.NONE)
            .auditFormat(format).build(), System::nanoTime);
        try (LogCapture log = LogCapture.start()) {
          audit.failed(PEER, HandshakeAudit.Stage.SASL, failure, Duration.ofMillis(3));
          String line = log.awaitLines(AUDIT, 1, Duration.ofSeconds(5)).get(0);
          assertFalse(log.text().contains("\n[main] WARN forged"), log.text());
          String expected = format == AuditFormat.TEXT
              ? "event=auth outcome=failure peer=/127.0.0.1:50312 mode=none stage=sasl cause=sasl-bad handshake_ms=3"
                  + " detail=\"bad \\\"name\\\"\\\\n[main] WARN forged \\\\\\\\ line\""
              : "{\"event\":\"auth\",\"outcome\":\"failure\",\"peer\":\"/127.0.0.1:50312\",\"mode\":\"none\","
                  + "\"stage\":\"sasl\",\"cause\":\"sasl-bad\",\"handshake_ms\":3,"
                  + "\"detail\":\"bad \\\"name\\\"\\\\n[main] WARN forged \\\\\\\\ line\"}";
          assertEquals(expected, line.substring(line.indexOf(AUDIT) + AUDIT.length()), failure.toString());
          // The main log's warning carries the same text without the layout's quoting: escaped once.
          String warning = log.awaitLines("rejected connection from", 1, Duration.ofSeconds(5)).get(0);
          assertTrue(warning.endsWith(": bad \"name\"\\n[main] WARN forged \\\\ line"), warning);
        }
      }
    }
  }

  /**
   * A layer that broke HandshakeFailure's contract and put raw text in its message still cannot forge a line: the
   * control is escaped (its backslashes, which cannot be told from escapes, are left as they are).
   */
  @Test
  void aRawControlInAHandshakeFailureIsEscapedStill() throws Exception {
    HandshakeAudit audit = new HandshakeAudit(SecurityConfig.builder().mode(SecurityMode.NONE).build(),
        System::nanoTime);
    try (LogCapture log = LogCapture.start()) {
      audit.failed(PEER, HandshakeAudit.Stage.SASL, new HandshakeFailure(AuthFailure.SASL_BAD,
          "raw\n[main] WARN forged", null), Duration.ofMillis(3));
      String line = log.awaitLines(AUDIT, 1, Duration.ofSeconds(5)).get(0);
      assertTrue(line.endsWith(" detail=\"raw\\\\n[main] WARN forged\""), line);
      assertFalse(log.text().contains("\n[main] WARN forged"), log.text());
    }
  }

  /** A no-break space would end an unquoted value for a reader that splits on any space, as tools do. */
  @Test
  void aValueWithAnySpaceCharacterIsQuoted() throws Exception {
    HandshakeAudit audit = new HandshakeAudit(SecurityConfig.builder().mode(SecurityMode.NONE).build(),
        System::nanoTime);
    try (LogCapture log = LogCapture.start()) {
      audit.failed(PEER, HandshakeAudit.Stage.SASL,
          new HandshakeFailure(AuthFailure.SASL_BAD, "admin\u00a0forged", null), Duration.ofMillis(3));
      String line = log.awaitLines(AUDIT, 1, Duration.ofSeconds(5)).get(0);
      assertTrue(line.endsWith(" detail=\"admin\u00a0forged\""), line);
    }
  }

  @Test
  void warningsAreLimitedPerCauseAndSayHowManyWereLeftOut() throws Exception {
    AtomicLong clock = new AtomicLong(1_000);
    HandshakeAudit audit = new HandshakeAudit(SecurityConfig.builder().build(), clock::get);
    try (LogCapture log = LogCapture.start()) {
      for (int i = 0; i < 3; i++) {
        audit.failed(PEER, HandshakeAudit.Stage.SASL, new HandshakeFailure(AuthFailure.SASL_BAD, "no " + i, null),
            Duration.ZERO);
      }
      // Another cause has its own allowance; a closed-before-handshake connection never warns.
      audit.failed(PEER, HandshakeAudit.Stage.SASL, new HandshakeFailure(AuthFailure.TIMEOUT, "slow", null),
          Duration.ZERO);
      audit.failed(PEER, HandshakeAudit.Stage.SASL,
          new HandshakeFailure(AuthFailure.CLOSED_BEFORE_HANDSHAKE, "scan", null), Duration.ZERO);
      clock.addAndGet(HandshakeAudit.WARN_INTERVAL.toNanos());
      audit.failed(PEER, HandshakeAudit.Stage.SASL, new HandshakeFailure(AuthFailure.SASL_BAD, "no 3", null),
          Duration.ZERO);
      List<String> warnings = log.lines(" WARN ");
      assertEquals(3, warnings.size(), log.text());
      assertTrue(warnings.get(0).endsWith("rejected connection from /127.0.0.1:50312 [sasl-bad]: no 0"),
          warnings.get(0));
      assertTrue(warnings.get(1).endsWith("[timeout]: slow"), warnings.get(1));
      assertTrue(warnings.get(2).endsWith("[sasl-bad]: no 3 (2 more sasl-bad rejections since the last such warning"
          + " were not logged)"), warnings.get(2));
      assertEquals(6, log.lines(AUDIT).size());
      assertEquals(4, audit.counters().failures(AuthFailure.SASL_BAD));
      assertEquals(6, audit.counters().failures());
      assertEquals("successes=0 () failures=6 (closed-before-handshake=1 timeout=1 sasl-bad=4)",
          audit.counters().toString());
    }
  }

  /** Refusals after the handshake have a window per kind too, apart from the handshake causes'. */
  @Test
  void refusalsAfterTheHandshakeAreLimitedPerKind() throws Exception {
    AtomicLong clock = new AtomicLong(1_000);
    HandshakeAudit audit = new HandshakeAudit(SecurityConfig.builder().build(), clock::get);
    try (LogCapture log = LogCapture.start()) {
      for (int i = 0; i < 3; i++) {
        audit.closing(PEER, HandshakeAudit.Refusal.FRAME, "frame " + i);
      }
      audit.closing(PEER, HandshakeAudit.Refusal.MESSAGE, "malformed");
      audit.failed(PEER, HandshakeAudit.Stage.SASL, new HandshakeFailure(AuthFailure.SASL_BAD, "no", null),
          Duration.ZERO);
      clock.addAndGet(HandshakeAudit.WARN_INTERVAL.toNanos());
      audit.closing(PEER, HandshakeAudit.Refusal.FRAME, "frame 3");
      List<String> warnings = log.lines(" WARN ");
      assertEquals(4, warnings.size(), log.text());
      assertTrue(warnings.get(0).endsWith("closing connection with /127.0.0.1:50312: frame 0"), warnings.get(0));
      assertTrue(warnings.get(1).endsWith(": malformed"), warnings.get(1));
      assertTrue(warnings.get(2).endsWith("[sasl-bad]: no"), warnings.get(2));
      assertTrue(warnings.get(3).endsWith(": frame 3 (2 more frame refusals since the last such warning were not"
          + " logged)"), warnings.get(3));
    }
  }
}
