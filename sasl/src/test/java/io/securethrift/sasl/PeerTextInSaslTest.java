package io.securethrift.sasl;

import io.securethrift.core.testservice.LogCapture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.identity.PeerText;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Peer-influenced text reaches the server's log only escaped and bounded (no line break to forge a log line, no
 * terminal escape, no 10 KB line), and a refused DIGEST-MD5 client only the one fixed reply. The JDK's DIGEST-MD5
 * server quotes the client's charset in its error ("Incompatible charset value: ..."), so a real client's response is
 * rewritten on the way to carry a hostile one.
 */
class PeerTextInSaslTest {
  private static final String FORGED_LINE = "utf-8\r\n[main] WARN io.securethrift.core.ServerTransportFactory - forged";

  /** What a log must never contain: the controls above, or the forged line at the start of a line. */
  private static void assertNoRawControls(String log) {
    assertFalse(log.contains("\r") || log.contains("\u001b") || log.contains("\n[main] WARN"
        + " io.securethrift.core.ServerTransportFactory - forged"), "a raw control reached the log:\n" + log);
  }

  /** One bounded line of printable text. */
  private static void assertSafe(String text) {
    assertFalse(text.contains("\r") || text.contains("\n") || text.contains("\u001b"), text);
    assertTrue(text.length() < 2 * PeerText.MAX_LENGTH, "a " + text.length() + "-character line");
  }

  /** The JDK's DIGEST-MD5 server refuses responses over 4 KB, so 3 KB is the longest charset it quotes. */
  static List<String> hostileCharsets() {
    return List.of(FORGED_LINE, "utf-8\u001b[31m red \u001b[0m", "x".repeat(3 * 1024));
  }

  @ParameterizedTest
  @MethodSource("hostileCharsets")
  void hostileCharsetReachesTheLogOnlyEscapedAndTheClientNotAtAll(String charset) throws Exception {
    String escaped = PeerText.sanitize(charset);
    String quoted = "Incompatible charset value: " + escaped.substring(0, Math.min(escaped.length(), 60));
    UnaryOperator<String> toServer = response -> response.replace("charset=utf-8", "charset=\"" + charset + "\"");
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory servers = ServerTransportFactory.create(SaslConfigs.digestServer().build());
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient().build())) {
      EchoServer server = EchoServer.start(servers);
      try (RewritingRelay relay = RewritingRelay.to(server.port(), UnaryOperator.identity(), toServer)) {
        TTransportException e = assertThrows(TTransportException.class,
            () -> clients.open(SaslConfigs.HOST, relay.port()));
        // A refused DIGEST-MD5 response gets the one reply that tells nothing about the token or the response.
        assertTrue(e.getMessage().endsWith("Peer indicated failure: " + ServerNegotiation.AUTHENTICATION_FAILED),
            e.getMessage());
        List<String> fromServer = relay.serverMessages();
        assertEquals("3:" + ServerNegotiation.AUTHENTICATION_FAILED, fromServer.get(fromServer.size() - 1));
        String warning = log.awaitLines("rejected connection from", 1, Duration.ofSeconds(10)).get(0);
        assertTrue(warning.contains(quoted), warning);
        assertSafe(warning);
      } finally {
        // Stopping waits for the worker, whose libthrift server logs the failure with its whole cause chain.
        server.close();
      }
      assertNoRawControls(log.text());
    }
  }

  /**
   * A peer's literal backslash sequences (the two characters {@code \n}, the six {@code \u001b}) pass through the
   * server's whole path escaped once: {@code \\n} in the main log's warning and in the audit line's detail (which the
   * text layout quotes once more, undone below), never the {@code \\\\n} of text escaped twice on its way through the
   * negotiation, the handshake and the audit.
   */
  @Test
  void literalBackslashesInAPeersReasonAreEscapedOnceInTheWarningAndTheAuditLine() throws Exception {
    String reason = "bad\\n[main] WARN forged \\u001b[2J";
    String once = "Peer indicated failure: bad\\\\n[main] WARN forged \\\\u001b[2J";
    String twice = "bad\\\\\\\\n";
    try (LogCapture log = LogCapture.start()) {
      String warning = serverWarningWhenTheClientSays(reason, log);
      assertTrue(warning.endsWith("failed: " + once), warning);
      String audit = log.awaitLines(" securethrift.audit - event=auth outcome=failure", 1, Duration.ofSeconds(10))
          .get(0);
      String detail = unquoted(audit.substring(audit.indexOf(" detail=") + " detail=".length()));
      assertTrue(detail.endsWith("failed: " + once), audit);
      assertFalse(warning.contains(twice) || detail.contains(twice), audit);
      assertNoRawControls(log.text());
    }
  }

  /**
   * A real DIGEST-MD5 server's warning when a client takes its challenge and answers BAD with {@code reason}; the
   * server is stopped before this returns.
   */
  private static String serverWarningWhenTheClientSays(String reason, LogCapture log) throws Exception {
    try (ServerTransportFactory servers = ServerTransportFactory.create(SaslConfigs.digestServer().build())) {
      EchoServer server = EchoServer.start(servers);
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
        SaslWire.send(socket, 1, "DIGEST-MD5".getBytes(StandardCharsets.US_ASCII));
        SaslWire.send(socket, 2, new byte[0]);
        String challenge = SaslWire.read(socket);
        assertTrue(challenge.startsWith("2:"), challenge);
        SaslWire.send(socket, 3, reason.getBytes(StandardCharsets.UTF_8));
        return log.awaitLines("rejected connection from", 1, Duration.ofSeconds(10)).get(0);
      } finally {
        server.close();
      }
    }
  }

  /** A key=value audit value as written, its layout quoting undone. */
  private static String unquoted(String value) {
    if (!value.startsWith("\"")) {
      return value;
    }
    StringBuilder s = new StringBuilder();
    for (int i = 1; i < value.length() - 1; i++) {
      char c = value.charAt(i);
      s.append(c == '\\' ? value.charAt(++i) : c);
    }
    return s.toString();
  }

  @Test
  void tenKilobyteBadReasonIsLoggedCutAndEscaped() throws Exception {
    String reason = "GSS initiate failed\r\n" + FORGED_LINE + "\u001b[2J" + "y".repeat(10 * 1024);
    try (LogCapture log = LogCapture.start()) {
      String warning = serverWarningWhenTheClientSays(reason, log);
      assertTrue(warning.contains("failed: Peer indicated failure: GSS initiate failed\\r\\nutf-8\\r\\n[main] WARN"),
          warning);
      assertTrue(warning.contains("\\u001b[2J") && warning.endsWith(" more characters)"), warning);
      assertSafe(warning);
      assertNoRawControls(log.text());
    }
  }
}
