package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.testkit.ca.KeyType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the handshake scenario reads {@code openssl s_time}: the connection count over the real seconds gives
 * handshakes/s, the per-connection marks give the resumed share. The texts are s_time's own output (OpenSSL 3.0
 * against {@code s_server -www} on loopback), and one test runs the real pair.
 */
class HandshakeRatesTest {
  @TempDir
  Path dir;

  @Test
  void fullHandshakesAreConnectionsOverTheMeasuredSecondsAndNoneResumed() throws IOException {
    String out = resource("s_time-new-tls13.txt");
    assertTrue(out.contains("791 connections in 0.63s; 1255.56 connections/user sec"),
        "the user-time line comes first and is not the one read");
    Map<String, Double> f = HandshakeRates.figures(out, 1.25, "openssl", "TLSv1.3", "full").map();
    assertEquals(List.of("handshakes_per_s", "resumed_pct"), List.copyOf(f.keySet()));
    assertEquals(791 / 1.25, f.get("handshakes_per_s"),
        "791 connections over the 1.25 s measured: not per user second, nor over s_time's 2 whole real seconds");
    assertEquals(0.0, f.get("resumed_pct"), "791 '*' marks: every one a new session");
  }

  @Test
  void resumedHandshakesCountTheMarkedR() throws IOException {
    Map<String, Double> f = HandshakeRates.figures(resource("s_time-reuse-tls12.txt"), 2.0, "jsse", "TLSv1.2",
        "resumed").map();
    assertEquals(4377 / 2.0, f.get("handshakes_per_s"));
    assertEquals(100.0, f.get("resumed_pct"), "4377 'r' marks on one line");
  }

  @Test
  void theResumedShareIsOfAllMarksOnEveryMarkLine() throws IOException {
    String out = "\n\nNow timing with session id reuse.\nstarting\nrr*r\nrrt3\n\n"
        + "8 connections in 0.01s; 800.00 connections/user sec, bytes read 100\n"
        + "8 connections in 4 real seconds, 12 bytes read per connection\n";
    Map<String, Double> f = HandshakeRates.figures(out, 4.0, "conscrypt", "TLSv1.3", "resumed").map();
    assertEquals(2.0, f.get("handshakes_per_s"));
    assertEquals(100.0 * 5 / 8, f.get("resumed_pct"), "5 of 8 marks are r; '*', 't' and '3' are new sessions");
  }

  @Test
  void linesWithOtherTextAreNotMarksAndNoMarksIsNotANumber() throws IOException {
    String out = "Collecting connection statistics for 1 seconds\nstarting\nrrr error\n"
        + "0 connections in 0.00s; 0.00 connections/user sec, bytes read 0\n"
        + "0 connections in 0 real seconds, 0 bytes read per connection\n";
    Map<String, Double> f = HandshakeRates.figures(out, 1.0, "jsse", "TLSv1.2", "full").map();
    assertEquals(0.0, f.get("handshakes_per_s"));
    assertTrue(Double.isNaN(f.get("resumed_pct")), "nothing was marked: no share");
  }

  @Test
  void outputWithoutAConnectionCountIsAnErrorThatQuotesIt() {
    String out = "Can't connect\n4097A1D3:error:8000006F:system library:BIO_connect:Connection refused\n";
    IOException e = assertThrows(IOException.class, () -> HandshakeRates.figures(out, 1.0, "conscrypt", "TLSv1.2",
        "warm-up"));
    assertEquals("openssl s_time against conscrypt (TLSv1.2, warm-up) printed no connection count:\n" + out,
        e.getMessage());
  }

  @Test
  void opensslIsFoundByItsCommandAndAMissingOneIsNot() {
    assertTrue(HandshakeRates.available(HandshakeRates.OPENSSL), "openssl is installed where these tests run");
    assertFalse(HandshakeRates.available(dir.resolve("no-openssl").toString()));
  }

  @Test
  void aRealSTimeAgainstSServerWithAClientCertificateGivesAFullAndAResumedRowPerVersion() throws Exception {
    BenchMaterial material = BenchMaterial.create(dir, KeyType.EC);
    ServerBenchOptions options = ServerBenchOptions.quick().handshakeServers(List.of());
    assertEquals(1, options.handshakeSeconds);
    assertFalse(options.handshakeWarmUp, "the quick preset has no uncounted run");
    List<Row> rows = HandshakeRates.measure(material, KeyType.EC, options, dir);
    assertEquals(List.of("TLSv1.3 ec full", "TLSv1.3 ec resumed", "TLSv1.2 ec full", "TLSv1.2 ec resumed"),
        rows.stream().map(r -> r.mode() + " " + r.load()).toList());
    for (Row row : rows) {
      assertEquals(HandshakeRates.SCENARIO, row.scenario());
      assertEquals(HandshakeRates.OPENSSL, row.server());
      assertTrue(row.get("handshakes_per_s") > 0, row.toString());
      boolean full = row.load().equals(HandshakeRates.FULL);
      assertEquals(full ? 0.0 : 100.0, row.get("resumed_pct"), "-new: every handshake full; -reuse: all resumed");
      assertEquals(full, Double.isNaN(row.get("ratio")), "openssl's resumed rate as a ratio to its full: " + row);
    }
    assertTrue(Files.exists(dir.resolve("openssl-s_server.log")), "s_server's output goes to a log");
  }

  @Test
  void sServerRequiresTheClientCertificate() throws Exception {
    BenchMaterial material = BenchMaterial.create(dir, KeyType.EC);
    BenchMaterial stranger = BenchMaterial.create(Files.createDirectory(dir.resolve("stranger")),
        KeyType.EC);
    ServerBenchOptions options = ServerBenchOptions.quick().handshakeServers(List.of());
    try (HandshakeRates.OpensslServer server = HandshakeRates.OpensslServer.start(material, options.openssl,
        dir.resolve("s_server.log"))) {
      assertTrue(HandshakeRates.sTime(options, material, "TLSv1.3", HandshakeRates.FULL, HandshakeRates.OPENSSL,
          server.port).map().get("handshakes_per_s") > 0);
      IOException refused = assertThrows(IOException.class, () -> HandshakeRates.sTime(options, stranger,
          "TLSv1.2", HandshakeRates.FULL, HandshakeRates.OPENSSL, server.port));
      assertTrue(refused.getMessage().contains("printed no connection count"), refused.getMessage());
    }
  }

  @Test
  void ratiosAreOfTheSameRoundAndBoundedFromThreeRounds() {
    HandshakeRates.Rounds openssl = new HandshakeRates.Rounds(3);
    HandshakeRates.Rounds ours = new HandshakeRates.Rounds(3);
    double[] theirs = {400, 200, 300};
    for (int round = 0; round < 3; round++) {
      openssl.add(round, new Row.Figures().put("handshakes_per_s", theirs[round]).put("resumed_pct", 0));
      ours.add(round, new Row.Figures().put("handshakes_per_s", theirs[round] * 0.9).put("resumed_pct", 0));
    }
    Row row = ours.row("TLSv1.3 rsa", "jsse nonblocking", HandshakeRates.FULL, openssl);
    assertEquals(0.9, row.get("ratio"), 1e-9, "the same 0.9 in every round, whatever the drift between rounds");
    assertEquals(0.9, row.get("ratio_low"), 1e-9);
    assertEquals(0.9, row.get("ratio_high"), 1e-9);
    assertEquals(Math.cbrt(400 * 200 * 300 * 0.9 * 0.9 * 0.9), row.get("handshakes_per_s"), 1e-6, "geometric mean");
    assertTrue(Double.isNaN(openssl.row("TLSv1.3 rsa", "openssl", HandshakeRates.FULL, null).get("ratio")));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = HandshakeRatesTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
