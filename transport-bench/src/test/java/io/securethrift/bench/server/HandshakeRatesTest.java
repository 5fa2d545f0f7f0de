package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void aRealSTimeAgainstSServerGivesAFullAndAResumedRow() throws Exception {
    BenchMaterial material = BenchMaterial.create(dir);
    ServerBenchOptions options = ServerBenchOptions.quick();
    assertEquals(1, options.handshakeSeconds);
    assertFalse(options.handshakeWarmUp, "the quick preset has no uncounted run");
    List<Row> rows = HandshakeRates.onOpenssl(material, options, "TLSv1.2", dir);
    assertEquals(List.of("full", "resumed"), rows.stream().map(Row::load).toList());
    for (Row row : rows) {
      assertEquals(HandshakeRates.SCENARIO, row.scenario());
      assertEquals("TLSv1.2", row.mode());
      assertEquals(HandshakeRates.OPENSSL, row.server());
      assertTrue(row.get("handshakes_per_s") > 0, row.toString());
    }
    assertEquals(0.0, rows.get(0).get("resumed_pct"), "-new: every handshake is full");
    assertEquals(100.0, rows.get(1).get("resumed_pct"), "-reuse: s_server resumes every session");
    assertTrue(Files.exists(dir.resolve("openssl-s_server.log")), "s_server's output goes to a log");
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = HandshakeRatesTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
