package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ServerTransportFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A real Cyrus SASL (libsasl2) DIGEST-MD5 client, driven from Python through ctypes
 * ({@code src/test/python/cyrus_digest_client.py}), against our server. A Cyrus client that accepts none of the
 * offered levels closes without a reason; the server must still say that QOP was why, and which levels it offered.
 * Runs where python3 and libsasl2 with its DIGEST-MD5 plugin are installed; elsewhere it is skipped, saying so.
 */
class CyrusInteropTest {
  private static final Path CLIENT = Path.of("src/test/python/cyrus_digest_client.py");
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void cyrusClientRefusingTheOfferedQopIsNamedOnTheServer() throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(SaslConfigs.digestServer()
            .qop(QualityOfProtection.AUTH_CONF).build());
        EchoServer server = EchoServer.start(factory)) {
      // max SSF 0: this client accepts auth only, and the server offers auth-conf only.
      List<String> cyrus = runCyrus(server.port(), 0, 2);
      assertTrue(cyrus.stream().anyMatch(l -> l.startsWith("cyrus: sasl_client_step refused: ")), cyrus.toString());
      Await.until("the refusal counted", WAIT,
          () -> factory.counters().failures(AuthFailure.QOP_REFUSED_BY_PEER) == 1);
      String warning = log.awaitLines("rejected connection from", 1, WAIT).get(0);
      assertTrue(warning.contains("[qop-refused-by-peer]: DIGEST-MD5 negotiation with ")
          && warning.contains("the client closed the connection right after the server offered [auth-conf]"), warning);
      String audit = log.awaitLines(" cause=qop-refused-by-peer ", 1, WAIT).get(0);
      System.out.println("CyrusInteropTest: " + cyrus + "\n" + warning + "\n" + audit);
    }
  }

  /**
   * Cyrus's DIGEST-MD5 takes 3DES from OpenSSL, whose version 3 keeps DES in its legacy provider: where libsasl2 is
   * built on it, as here, only RC4 works, which the default minimum strength (high: 3DES only) refuses. So this
   * server accepts medium, as an operator would for such a peer (better: sasl-over-tls), and the audit names RC4.
   */
  @Test
  void cyrusClientAcceptingAuthConfIsAuditedWithItsCipher() throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(SaslConfigs.digestServer()
            .qop(QualityOfProtection.AUTH_CONF).digestMinStrength(CipherStrength.MEDIUM).build());
        EchoServer server = EchoServer.start(factory)) {
      List<String> cyrus = runCyrus(server.port(), 256, 0);
      assertTrue(cyrus.get(0).startsWith("cyrus: negotiation complete, ssf "), cyrus.toString());
      Await.until("the success counted", WAIT, () -> factory.counters().successes() == 1);
      String audit = log.awaitLines(" outcome=success ", 1, WAIT).get(0);
      assertTrue(audit.contains(" mechanism=DIGEST-MD5 qop=auth-conf sasl_cipher=rc4 "), audit);
      System.out.println("CyrusInteropTest: " + cyrus + "\n" + audit);
    }
  }

  /** Runs the Cyrus client and checks its exit code; skips the test when libsasl2 cannot be loaded here. */
  private static List<String> runCyrus(int port, int maxSsf, int expectedExit) throws Exception {
    String user = Base64.getEncoder().encodeToString(SaslConfigs.TOKEN.identifier());
    String password = Base64.getEncoder().encodeToString(SaslConfigs.TOKEN.password());
    Process process;
    try {
      process = new ProcessBuilder("python3", CLIENT.toString(), Integer.toString(port), user, password,
          Integer.toString(maxSsf)).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("python3 is not installed, so no Cyrus SASL client can run: " + e.getMessage());
      throw e;
    }
    try {
      if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError("the Cyrus client did not finish within " + WAIT);
      }
      List<String> output = List.of(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
          .split("\n"));
      Assumptions.assumeFalse(process.exitValue() == 3, "libsasl2 or its DIGEST-MD5 plugin is missing: " + output);
      assertEquals(expectedExit, process.exitValue(), output.toString());
      return output;
    } finally {
      process.destroy();
    }
  }
}
