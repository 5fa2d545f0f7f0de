package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.PrincipalMapping;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Pattern;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Text a peer controls reaches logs and messages only escaped, on both engines: a client certificate, signed by the
 * trusted CA, whose common name holds CR/LF and an ANSI colour escape, both accepted (the service logs the caller)
 * and rejected (expired), and the engine's own failure text (BoringSSL's spans two lines).
 */
@ExtendWith(CertificateAuthorityExtension.class)
class HostileCertificateTextTest {
  private static final String HOSTILE_CN = "mallory\r\nWARN forged line \u001b[31mred\u001b[0m";
  private static final String ESCAPED_CN = "mallory\\r\\nWARN forged line \\u001b[31mred\\u001b[0m";
  /** A line a log reader accepts: an slf4j-simple record, or a line of a stack trace printed with one. */
  private static final Pattern LOG_LINE = Pattern.compile("\\[[^\\]]+\\] (TRACE|DEBUG|INFO|WARN|ERROR) [\\w.$]+ - .*"
      + "|\\tat .*|\\t\\.\\.\\. \\d+ more|\\t*(Caused by|Suppressed): .*|([A-Za-z_$][\\w$]*\\.)+[\\w$]+(: .*)?");

  private static IssuedCertificate hostile;
  private static Path serverStore;
  private static Path hostileStore;
  private static Path expiredHostileStore;
  private static Path trustStore;
  private static Path otherTrustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    hostile = ca.leaf().commonName(HOSTILE_CN).issue();
    hostileStore = TlsTestConfigs.keyStore(hostile, dir, "hostile");
    Instant now = Instant.now();
    expiredHostileStore = TlsTestConfigs.keyStore(ca.leaf().commonName(HOSTILE_CN)
        .validity(now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1))).issue(), dir, "expired-hostile");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
    otherTrustStore = TlsTestConfigs.trustStore(TestCertificateAuthority.create("other CA", KeyType.RSA),
        dir.resolve("other"));
  }

  @EachTlsEngine
  void peerTextIsEscapedInLogsAndMessages(TlsEngine engine) throws Exception {
    // The name itself is kept exactly as certified: escaping is for output, not for identity.
    assertEquals(HOSTILE_CN, PrincipalMapper.map(PrincipalMapping.CN, hostile.certificate()).orElseThrow());
    String log;
    try (LogCapture capture = LogCapture.start();
         ServerTransportFactory serverFactory = ServerTransportFactory.create(
             TlsTestConfigs.tls(engine, serverStore, trustStore).clientAuth(ClientAuth.NEED).build())) {
      EchoServer server = EchoServer.start(serverFactory);
      try {
        try (ClientTransportFactory factory = ClientTransportFactory.create(
                TlsTestConfigs.tls(engine, hostileStore, trustStore).build());
             SecuredTransport transport = factory.open("localhost", server.port())) {
          String seen = EchoServer.client(transport).whoAmI();
          assertTrue(seen.contains(" principal=" + ESCAPED_CN + " "), seen);
        }
        assertNoControls(failure(engine, expiredHostileStore, trustStore, server.port()), false);
        // This client distrusts the server; a Conscrypt server then usually reports BoringSSL's two-line error text.
        assertNoControls(failure(engine, hostileStore, otherTrustStore, server.port()), false);
        // Both refusals are audited; the first is a WARN too. The second is tls-alert, or closed-before-handshake
        // when the server's write meets the closed connection before it reads the client's alert.
        capture.awaitLines("rejected connection from", 1, Duration.ofSeconds(30));
        capture.awaitLines(" outcome=failure ", 2, Duration.ofSeconds(30));
      } finally {
        // Waits for the workers, so libthrift's own report of each failure is complete.
        server.close();
      }
      log = capture.text();
    }
    assertTrue(log.contains("the client's certificate has expired (subject CN=" + ESCAPED_CN
        + ", alternative names DNS:localhost, IP:127.0.0.1)"), log);
    assertNoControls(log, true);
    for (String line : log.split("\n", -1)) {
      assertTrue(line.isEmpty() || LOG_LINE.matcher(line).matches(), "a line no log record starts: '" + line
          + "' in:\n" + log);
    }
  }

  /** The client's error when it presents {@code keyStore} and trusts {@code trust}. */
  private static String failure(TlsEngine engine, Path keyStore, Path trust, int port) {
    try (ClientTransportFactory factory = ClientTransportFactory.create(
        TlsTestConfigs.tls(engine, keyStore, trust).build())) {
      // In TLS 1.3 a rejected client finishes its handshake and learns of the rejection at its first call.
      return assertThrows(TTransportException.class, () -> {
        try (SecuredTransport transport = factory.open("localhost", port)) {
          EchoServer.client(transport).echo(ByteBuffer.allocate(1));
        }
      }).getMessage();
    }
  }

  /** No control character, except, in a log, the line breaks and tabs the logger writes between and in records. */
  private static void assertNoControls(String text, boolean logLayout) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean allowed = !Character.isISOControl(c) || logLayout && (c == '\n' || c == '\t');
      assertTrue(allowed, String.format("raw U+%04X at %d in:%n%s", (int) c, i, text));
    }
  }
}
