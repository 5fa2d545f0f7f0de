package io.securethrift.bench.server;

import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.PemFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scenario 5: TLS handshakes per second, full and resumed, TLS 1.3 and 1.2, on the non-blocking server with each
 * engine and on {@code openssl s_server}, all presenting the same certificate. One client measures them all: {@code
 * openssl s_time}, so the figures compare servers and not clients. s_time fetches a page after each handshake
 * ({@code -www}): a TLS 1.3 client receives its resumption ticket only when it reads after the handshake. The Java
 * servers answer that request by closing (it is not a Thrift frame), {@code s_server -www} with a short status page.
 * s_time sets {@code TCP_NODELAY}, so no figure here waits on delayed ACKs; a Java client with {@code TCP_NODELAY}
 * measured the same gap between the Java servers and {@code s_server} (docs/nonblocking-server.md).
 */
final class HandshakeRates {
  static final String SCENARIO = "handshakes";
  static final String OPENSSL = "openssl";
  private static final Pattern CONNECTIONS = Pattern.compile("(\\d+) connections in \\d+ real seconds");
  private static final Pattern PER_CONNECTION = Pattern.compile("^[*rt3]+$", Pattern.MULTILINE);

  private HandshakeRates() {}

  /** Whether {@code openssl} runs here; the scenario is skipped, and says so, when it does not. */
  static boolean available(String openssl) {
    try {
      Process p = new ProcessBuilder(openssl, "version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static List<Row> measure(BenchMaterial material, ServerBenchOptions o, Path logs) throws IOException,
      InterruptedException {
    List<Row> rows = new ArrayList<>();
    for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
      rows.addAll(onOpenssl(material, o, protocol, logs));
      for (TlsEngine engine : o.handshakeEngines) {
        try (ServerUnderTest server = ServerUnderTest.start(material, ServerModes.TLS, engine,
            ServerKind.NONBLOCKING, o.serverHeap, logs.resolve("handshakes-" + engine.token() + ".log"))) {
          rows.addAll(rates(o, protocol, engine.token(), server.port()));
        }
      }
    }
    return rows;
  }

  static List<Row> onOpenssl(BenchMaterial material, ServerBenchOptions o, String protocol, Path logs)
      throws IOException, InterruptedException {
    int port = freePort();
    PemFiles pem = material.serverPem();
    ProcessBuilder.Redirect log = ProcessBuilder.Redirect.appendTo(logs.resolve("openssl-s_server.log").toFile());
    Process server = new ProcessBuilder(o.openssl, "s_server", "-accept", "127.0.0.1:" + port, "-cert",
        pem.certificateChain().toString(), "-key", pem.privateKey().toString(), "-www", "-quiet")
        .redirectErrorStream(true).redirectOutput(log).start();
    try {
      awaitListening(port, server);
      return rates(o, protocol, OPENSSL, port);
    } finally {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * A full and a resumed row for one server, after a run of full handshakes that is not counted: a Java server's
   * first handshakes run in the interpreter.
   */
  private static List<Row> rates(ServerBenchOptions o, String protocol, String serverName, int port)
      throws IOException, InterruptedException {
    List<Row> rows = new ArrayList<>();
    int seconds = o.handshakeSeconds;
    for (String handshake : o.handshakeWarmUp ? List.of("warm-up", "full", "resumed") : List.of("full", "resumed")) {
      long started = System.nanoTime();
      Process client = new ProcessBuilder(o.openssl, "s_time", "-connect", "127.0.0.1:" + port,
          handshake.equals("resumed") ? "-reuse" : "-new", "-time", Integer.toString(seconds),
          protocol.equals("TLSv1.3") ? "-tls1_3" : "-tls1_2", "-www", "/").redirectErrorStream(true).start();
      String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!client.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
        client.destroyForcibly();
        throw new IOException("openssl s_time against " + serverName + " did not finish");
      }
      Row.Figures figures = figures(out, (System.nanoTime() - started) / 1e9, serverName, protocol, handshake);
      if (handshake.equals("warm-up")) {
        continue;
      }
      rows.add(new Row(SCENARIO, protocol, serverName, handshake, figures.map()));
    }
    return rows;
  }

  /**
   * The figures of one {@code openssl s_time} run: the connections its output counts over {@code seconds}, the run's
   * own time as this process measured it, and the share of the connections it marked ({@code *}, {@code t} or
   * {@code 3} new, {@code r} resumed) that resumed a session, NaN when it marked none. Not s_time's own "real
   * seconds": it counts whole seconds of the clock and runs until the clock passes its end, so asked for 3 s it ran
   * 3 to 4 and printed 4 here, which read up to a quarter low.
   */
  static Row.Figures figures(String out, double seconds, String serverName, String protocol, String handshake)
      throws IOException {
    Matcher m = CONNECTIONS.matcher(out);
    if (!m.find()) {
      throw new IOException("openssl s_time against " + serverName + " (" + protocol + ", " + handshake
          + ") printed no connection count:\n" + out);
    }
    long connections = Long.parseLong(m.group(1));
    long resumed = 0;
    long marked = 0;
    Matcher marks = PER_CONNECTION.matcher(out);
    while (marks.find()) {
      String line = marks.group();
      marked += line.length();
      resumed += line.chars().filter(c -> c == 'r').count();
    }
    return new Row.Figures()
        .put("handshakes_per_s", connections / seconds)
        .put("resumed_pct", marked == 0 ? Double.NaN : 100.0 * resumed / marked);
  }

  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    }
  }

  private static void awaitListening(int port, Process server) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return;
      } catch (IOException e) {
        if (!server.isAlive()) {
          throw new IOException("openssl s_server exited with " + server.exitValue() + "; see its log");
        }
        if (System.nanoTime() > deadline) {
          throw new UncheckedIOException("openssl s_server did not listen on " + port + " within 20 s", e);
        }
        TimeUnit.MILLISECONDS.sleep(20);
      }
    }
  }
}
