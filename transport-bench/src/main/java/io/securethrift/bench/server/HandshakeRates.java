package io.securethrift.bench.server;

import io.securethrift.core.TlsEngine;
import io.securethrift.harness.Bootstrap;
import io.securethrift.harness.Interval;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.PemFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scenario 6: TLS handshakes per second with mutual authentication, full and resumed, TLS 1.3 and 1.2, for each key
 * type, on {@code openssl s_server} and on each engine in each server model, all presenting the same certificate and
 * key and requiring the same client certificate. Every server of a key type runs at once; each Java server is first
 * warmed up until its JIT compiler is done ({@link #warmUp}); then the rounds alternate between the servers (each
 * round starting one server later), so that the machine's drift weighs on all alike; a Java
 * server's row gives its rate as a ratio to {@code s_server}'s in the same round (full) or to its own full rate
 * (resumed), the geometric mean over rounds with its 95 % interval ({@link Bootstrap}).
 *
 * <p>One client measures them all: {@code openssl s_time} with the client certificate, so the figures compare servers
 * and not clients. s_time fetches a page after each handshake ({@code -www}): a TLS 1.3 client receives its
 * resumption ticket only when it reads after the handshake. The Java servers answer that request by closing (it is
 * not a Thrift frame), {@code s_server -www} with a short status page. s_time sets {@code TCP_NODELAY}, so no figure
 * here waits on delayed ACKs.
 */
final class HandshakeRates {
  static final String SCENARIO = "handshakes";
  static final String OPENSSL = "openssl";
  static final String FULL = "full";
  static final String RESUMED = "resumed";
  static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
  private static final Pattern CONNECTIONS = Pattern.compile("(\\d+) connections in \\d+ real seconds");
  private static final Pattern PER_CONNECTION = Pattern.compile("^[*rt3]+$", Pattern.MULTILINE);
  private static final long SEED = 0x5eed_4a5dL;
  /** A Java server is warm once its JIT compiler threads use less than this share of a warm-up cycle's time. */
  static final double JIT_SETTLED = 0.02;
  /** The longest warm-up of one Java server; a server still compiling then is measured anyway. */
  static final Duration WARM_UP_LIMIT = Duration.ofSeconds(60);

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

  /** The rows of every key type, each measured with fresh material in a directory of its own under {@code work}. */
  static List<Row> measure(ServerBenchOptions o, Path work) throws IOException, InterruptedException {
    List<Row> rows = new ArrayList<>();
    for (KeyType keyType : o.handshakeKeyTypes) {
      Path dir = Files.createDirectory(work.resolve("handshakes-" + keyType.token()));
      rows.addAll(measure(BenchMaterial.create(dir, keyType), keyType, o, dir));
    }
    return rows;
  }

  /** Every server of one key type: {@code s_server} first, then each engine in each server model. */
  static List<Row> measure(BenchMaterial material, KeyType keyType, ServerBenchOptions o, Path logs)
      throws IOException, InterruptedException {
    Map<String, AutoCloseable> servers = new LinkedHashMap<>();
    Map<String, ServerUnderTest> javaServers = new LinkedHashMap<>();
    Map<String, Integer> ports = new LinkedHashMap<>();
    try {
      OpensslServer openssl = OpensslServer.start(material, o.openssl, logs.resolve("openssl-s_server.log"));
      servers.put(OPENSSL, openssl);
      ports.put(OPENSSL, openssl.port);
      for (ServerKind kind : o.handshakeServers) {
        for (TlsEngine engine : o.handshakeEngines) {
          String name = engine.token() + " " + kind.token();
          ServerUnderTest server = ServerUnderTest.start(material, ServerModes.TLS, engine, kind, o,
              logs.resolve("handshakes-" + engine.token() + "-" + kind.token() + ".log"), true);
          servers.put(name, server);
          javaServers.put(name, server);
          ports.put(name, server.port());
        }
      }
      if (o.handshakeWarmUp) {
        for (Map.Entry<String, ServerUnderTest> server : javaServers.entrySet()) {
          warmUp(o, material, server.getKey(), server.getValue());
        }
      }
      List<Row> rows = new ArrayList<>();
      for (String protocol : PROTOCOLS) {
        String mode = protocol + " " + keyType.token();
        Map<String, Rounds> full = rounds(o, material, protocol, FULL, ports);
        Map<String, Rounds> resumed = rounds(o, material, protocol, RESUMED, ports);
        for (String name : ports.keySet()) {
          rows.add(full.get(name).row(mode, name, FULL, name.equals(OPENSSL) ? null : full.get(OPENSSL)));
          rows.add(resumed.get(name).row(mode, name, RESUMED, full.get(name)));
        }
      }
      return rows;
    } finally {
      for (AutoCloseable server : servers.values()) {
        try {
          server.close();
        } catch (Exception e) {
          throw new IOException("cannot stop a handshake server", e);
        }
      }
    }
  }

  /**
   * Cycles of every kind of handshake (full and resumed, each version) on a Java server until its JIT compiler
   * threads stay nearly idle through a whole cycle ({@link #JIT_SETTLED}), or for {@link #WARM_UP_LIMIT}. C2 compiles
   * JSSE's handshake code for tens of seconds on two cores: after five seconds of handshakes it still took 39 % of
   * the machine's CPU, which the server's figures would otherwise carry and {@code s_server}'s never do.
   */
  private static void warmUp(ServerBenchOptions o, BenchMaterial material, String name, ServerUnderTest server)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + WARM_UP_LIMIT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      long started = System.nanoTime();
      long jit = server.jitNanos();
      for (String protocol : PROTOCOLS) {
        for (String handshake : List.of(FULL, RESUMED)) {
          sTime(o, material, protocol, handshake, name, server.port());
        }
      }
      if (server.jitNanos() - jit < JIT_SETTLED * (System.nanoTime() - started)) {
        return;
      }
    }
  }

  /**
   * {@code o.handshakeRounds} rounds of one s_time run per server, the first server moving on by one each round,
   * after one uncounted run each (unless the options skip it): a Java server's first handshakes run in the
   * interpreter.
   */
  private static Map<String, Rounds> rounds(ServerBenchOptions o, BenchMaterial material, String protocol,
      String handshake, Map<String, Integer> ports) throws IOException, InterruptedException {
    List<String> names = List.copyOf(ports.keySet());
    if (o.handshakeWarmUp) {
      for (String name : names) {
        sTime(o, material, protocol, handshake, name, ports.get(name));
      }
    }
    Map<String, Rounds> rounds = new LinkedHashMap<>();
    names.forEach(name -> rounds.put(name, new Rounds(o.handshakeRounds)));
    for (int round = 0; round < o.handshakeRounds; round++) {
      for (int i = 0; i < names.size(); i++) {
        String name = names.get((round + i) % names.size());
        rounds.get(name).add(round, sTime(o, material, protocol, handshake, name, ports.get(name)));
      }
    }
    return rounds;
  }

  /** One {@code openssl s_time} run, mutually authenticated: full handshakes ({@code -new}) or resumed. */
  static Row.Figures sTime(ServerBenchOptions o, BenchMaterial material, String protocol, String handshake,
      String serverName, int port) throws IOException, InterruptedException {
    int seconds = o.handshakeSeconds;
    PemFiles client = material.clientPem();
    long started = System.nanoTime();
    Process process = new ProcessBuilder(o.openssl, "s_time", "-connect", "127.0.0.1:" + port,
        handshake.equals(RESUMED) ? "-reuse" : "-new", "-time", Integer.toString(seconds),
        protocol.equals("TLSv1.3") ? "-tls1_3" : "-tls1_2", "-cert", client.certificateChain().toString(),
        "-key", client.privateKey().toString(), "-CAfile", material.caPem().toString(), "-www", "/")
        .redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("openssl s_time against " + serverName + " did not finish");
    }
    return figures(out, (System.nanoTime() - started) / 1e9, serverName, protocol, handshake);
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

  /** One server's runs of one kind of handshake, by round. */
  static final class Rounds {
    private final double[] rates;
    private final double[] resumedPct;

    Rounds(int rounds) {
      rates = new double[rounds];
      resumedPct = new double[rounds];
    }

    void add(int round, Row.Figures figures) {
      rates[round] = figures.map().get("handshakes_per_s");
      resumedPct[round] = figures.map().get("resumed_pct");
    }

    /**
     * The row: the geometric mean rate, the share resumed over all rounds, and the rate as a ratio to {@code
     * baseline}'s in the same round with its interval (NaN without a baseline).
     */
    Row row(String mode, String server, String load, Rounds baseline) {
      Interval ratio = baseline == null ? Interval.unbounded(Double.NaN) : ratio(baseline);
      return new Row(SCENARIO, mode, server, load, new Row.Figures()
          .put("handshakes_per_s", Math.exp(Arrays.stream(rates).map(Math::log).average().orElse(0)))
          .put("resumed_pct", Arrays.stream(resumedPct).average().orElse(Double.NaN))
          .put("ratio", ratio.estimate()).put("ratio_low", ratio.low()).put("ratio_high", ratio.high()).map());
    }

    /** This rate over {@code baseline}'s, round by round: the geometric mean and its 95 % interval. */
    Interval ratio(Rounds baseline) {
      double[] ratios = new double[rates.length];
      for (int i = 0; i < ratios.length; i++) {
        ratios[i] = rates[i] / baseline.rates[i];
      }
      Interval percent = Bootstrap.overhead(ratios, SEED);
      return new Interval(1 + percent.estimate() / 100, 1 + percent.low() / 100, 1 + percent.high() / 100);
    }
  }

  /**
   * {@code openssl s_server} on a free loopback port with the material's server certificate and key, requiring a
   * client certificate that the material's CA issued ({@code -Verify}), answering each request with a status page.
   */
  static final class OpensslServer implements AutoCloseable {
    private final Process process;
    final int port;

    private OpensslServer(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    static OpensslServer start(BenchMaterial material, String openssl, Path log) throws IOException,
        InterruptedException {
      int port = freePort();
      PemFiles pem = material.serverPem();
      // -verify_return_error: without it s_server goes on with a client chain it could not verify.
      Process server = new ProcessBuilder(openssl, "s_server", "-accept", "127.0.0.1:" + port, "-cert",
          pem.certificateChain().toString(), "-key", pem.privateKey().toString(), "-Verify", "1",
          "-verify_return_error", "-CAfile", material.caPem().toString(), "-www", "-quiet").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      OpensslServer started = new OpensslServer(server, port);
      try {
        awaitListening(port, server);
        return started;
      } catch (IOException | RuntimeException | InterruptedException e) {
        started.close();
        throw e;
      }
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
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
