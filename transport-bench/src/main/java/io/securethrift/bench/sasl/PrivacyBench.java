package io.securethrift.bench.sasl;

import io.securethrift.harness.BenchMode;
import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.bench.Payloads;
import io.securethrift.bench.TurnOptions;
import io.securethrift.bench.tls.TlsBenchSetup;
import io.securethrift.harness.Interval;
import io.securethrift.harness.MeasuredRounds;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.ProgressLog;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import io.securethrift.harness.Workload;
import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.thrift.TException;

/**
 * {@code sasl-bench privacy}: Thrift echo throughput of the privacy modes against {@code none} and against GSS
 * {@code auth-conf}, as ratios with 95 % intervals, with TLS ({@code tls-jsse}, {@code tls-conscrypt}: server
 * certificate only, the TLS benchmarks' set-up) beside them as the speed the AES-GCM privacy is meant to reach. JMH
 * runs one mode after another, so on a shared machine its ratios move with whatever the machine did between them;
 * here every mode has its own server and open connection in one JVM, and in every round the modes take turns at each
 * message size (a round's seconds cut into turns, the order rotating from round to round), so the machine's slow and
 * fast moments fall on all of them alike. A mode's cost in a round is its time per echo; its ratio to {@code none}
 * (and to {@code auth-conf}) in the same round is one sample, and rounds are added until every interval is as narrow
 * as asked or the time is up.
 */
public final class PrivacyBench {
  static final String TOOL = "sasl-bench privacy";
  /** Adaptive: ±3 points of cost, four minutes, at least five rounds. */
  public static final StoppingRule DEFAULT_STOPPING = new StoppingRule(3.0, Duration.ofSeconds(240), 5, 0);
  /** Every mode the privacy comparison runs. */
  public static final List<String> MODES = List.copyOf(SaslKerberos.MODES.names());
  static final String BASELINE = "none";
  static final String GSS = "sasl-auth-conf";
  /** The bootstrap's seed: fixed, so the same raw data always gives the same intervals. */
  static final long SEED = 20_261_128L;

  /**
   * @param modes the modes compared, {@code none} and {@code auth-conf} among them
   * @param sizes the echoed payloads' sizes in bytes
   * @param seconds how long each mode echoes each size per round
   * @param turns how many turns a round's seconds are cut into
   * @param warmUp how long each mode echoes each size before the rounds (not analysed)
   */
  public record Settings(List<String> modes, List<Integer> sizes, double seconds, int turns, double warmUp,
      StoppingRule rule, Path output) {
    public Settings {
      modes = List.copyOf(modes);
      sizes = List.copyOf(sizes);
    }

    /**
     * The settings of mode names (any name {@link BenchMode} reads) and sizes as a user gave them.
     *
     * @throws ConfigException naming the option of a value that cannot be used
     */
    public static Settings of(List<String> modes, List<Integer> sizes, double seconds, int turns, double warmUp,
        StoppingRule rule, Path output) {
      List<String> names = SaslKerberos.MODES.parse("--modes", modes).stream().map(BenchMode::name).toList();
      if (!names.contains(BASELINE) || !names.contains(GSS)) {
        throw new ConfigException("--modes", names + " leaves out " + BASELINE + " or " + GSS
            + ", which every other mode is compared with");
      }
      if (sizes.isEmpty() || sizes.stream().anyMatch(size -> size < 1)) {
        throw new ConfigException("--sizes", sizes + " is not a list of payload sizes of 1 byte or more");
      }
      TurnOptions.check(seconds, turns, warmUp);
      return new Settings(names, sizes, seconds, turns, warmUp, rule, output);
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("modes", String.join(",", modes));
      m.put("sizes", sizes.stream().map(String::valueOf).collect(Collectors.joining(",")));
      m.put("seconds", seconds);
      m.put("turns", turns);
      m.put("warmUpSeconds", warmUp);
      m.putAll(rule.settings());
      return m;
    }
  }

  private final Settings settings;
  private final ProgressLog progress;

  public PrivacyBench(Settings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = new ProgressLog(progress);
  }

  /** Runs the rounds, writes the result files and returns the Markdown table. */
  public String run() throws Exception {
    RunInfo.Start start = RunInfo.start(RunInfo.launcherCommit());
    Map<String, AutoCloseable> fixtures = new LinkedHashMap<>();
    Map<String, EchoConnection> connections = new LinkedHashMap<>();
    try (SaslKerberos kerberos = new SaslKerberos()) {
      try {
        TlsBenchSetup tls = TlsBenchSetup.create();
        for (String name : settings.modes()) {
          BenchMode mode = SaslKerberos.MODES.parse("--modes", name);
          if (mode.onLibthrift()) {
            LibthriftSaslFixture fixture = kerberos.libthrift(mode);
            fixtures.put(name, fixture);
            connections.put(name, fixture.connect());
            continue;
          }
          EchoFixture fixture = mode.tls()
              ? EchoFixture.start(tls(tls, mode, true), tls(tls, mode, false))
              : EchoFixture.start(kerberos.server(mode), kerberos.client(mode));
          fixtures.put(name, fixture);
          connections.put(name, fixture.connect());
        }
        Map<Integer, ByteBuffer> payloads = new LinkedHashMap<>();
        settings.sizes().forEach(size -> payloads.put(size, Payloads.random(size)));
        MeasuredRounds.Outcome outcome = MeasuredRounds.run(new Echoes(connections, payloads), settings.rule(),
            start::elapsed, progress);
        List<Measurement> rows = outcome.rows();
        List<Overhead> againstGss = PairedAnalysis.overheads(rows, GSS, "time", PrivacyBench::nanosPerEcho, SEED);
        ResultsFile results = new ResultsFile(TOOL, start.finish().toMap(), settings.toMap(), "size", "mode",
            BASELINE, outcome.decision().name(), settings.rule().fixedRounds() ? Double.POSITIVE_INFINITY
                : settings.rule().precision(), outcome.overheads(), summaries(rows, outcome.overheads(), againstGss),
            rows);
        write(results);
        return markdown(results);
      } finally {
        connections.values().forEach(EchoConnection::close);
        for (AutoCloseable fixture : fixtures.values()) {
          fixture.close();
        }
      }
    }
  }

  /** The modes' connections as a workload: every payload echoed by each mode in turn. */
  private final class Echoes implements Workload {
    private final Map<String, EchoConnection> connections;
    private final Map<Integer, ByteBuffer> payloads;

    Echoes(Map<String, EchoConnection> connections, Map<Integer, ByteBuffer> payloads) {
      this.connections = connections;
      this.payloads = payloads;
    }

    /** One round 0 of {@code --warm-up} seconds in a single turn. */
    @Override
    public List<Measurement> warmUp(StoppingRule rule, Supplier<Duration> elapsed, ProgressLog log)
        throws IOException {
      List<Measurement> rows = PrivacyBench.this.round(connections, payloads, 0, settings.warmUp(), 1);
      log.step("warm-up done");
      return rows;
    }

    @Override
    public List<Measurement> round(int round) throws IOException {
      return PrivacyBench.this.round(connections, payloads, round, settings.seconds(), settings.turns());
    }

    @Override
    public List<Overhead> deciding(List<Measurement> rows) {
      return PairedAnalysis.overheads(rows, BASELINE, "time", PrivacyBench::nanosPerEcho, SEED);
    }

    /** Every interval as a speed ratio: each mode's share of {@code none}'s throughput. */
    @Override
    public String roundLine(int round, Duration roundTime, List<Overhead> deciding) {
      return "round " + round + ": " + deciding.stream().map(o -> o.group() + " " + o.variant() + " "
          + o.interval().asSpeedRatio().formatRatio()).collect(Collectors.joining(", "));
    }
  }

  /** A TLS mode's configuration, with frames as large as the SASL modes' so that a 1 MiB message fits. */
  private static SecurityConfig tls(TlsBenchSetup tls, BenchMode mode, boolean server) {
    return tls.config(mode.engine().orElseThrow().token(), server).toBuilder().maxFrameSize(4L << 20).build();
  }

  /**
   * One round: every payload, the modes taking {@code turns} turns each in an order that rotates with the round. A
   * row holds its payload's size ({@code bytes}) beside the echoes and their nanoseconds.
   */
  private List<Measurement> round(Map<String, EchoConnection> connections, Map<Integer, ByteBuffer> payloads,
      int round, double seconds, int turns) throws IOException {
    List<String> order = new ArrayList<>(connections.keySet());
    Collections.rotate(order, -Math.floorMod(round, order.size()));
    List<Measurement> rows = new ArrayList<>();
    long turnNanos = (long) (seconds * 1e9 / turns);
    for (Map.Entry<Integer, ByteBuffer> sized : payloads.entrySet()) {
      ByteBuffer payload = sized.getValue();
      Map<String, long[]> totals = new LinkedHashMap<>();
      for (int turn = 0; turn < turns; turn++) {
        for (String mode : order) {
          long[] total = totals.computeIfAbsent(mode, m -> new long[2]);
          EchoConnection connection = connections.get(mode);
          long begin = System.nanoTime();
          long now = begin;
          long echoes = 0;
          while (now - begin < turnNanos) {
            echo(connection, mode, payload);
            echoes++;
            now = System.nanoTime();
          }
          total[0] += echoes;
          total[1] += now - begin;
        }
      }
      for (String mode : connections.keySet()) {
        Map<String, Number> values = new LinkedHashMap<>();
        values.put("bytes", sized.getKey());
        values.put("echoes", totals.get(mode)[0]);
        values.put("ns", totals.get(mode)[1]);
        rows.add(new Measurement(Payloads.sizeLabel(sized.getKey()), mode, round, values));
      }
    }
    return rows;
  }

  private static void echo(EchoConnection connection, String mode, ByteBuffer payload) throws IOException {
    try {
      connection.echo(payload);
    } catch (TException e) {
      throw new IOException("an echo of " + payload.remaining() + " bytes in mode " + mode + " failed: "
          + e.getMessage(), e);
    }
  }

  private static double nanosPerEcho(Measurement m) {
    return m.value("ns") / m.value("echoes");
  }

  private static List<Map<String, Object>> summaries(List<Measurement> rows, List<Overhead> againstNone,
      List<Overhead> againstGss) {
    List<Map<String, Object>> out = new ArrayList<>();
    Map<List<String>, List<Measurement>> cells = rows.stream().filter(r -> !r.warmUp())
        .collect(Collectors.groupingBy(r -> List.of(r.group(), r.variant()), LinkedHashMap::new,
            Collectors.toList()));
    cells.forEach((cell, own) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("size", cell.get(0));
      m.put("mode", cell.get(1));
      m.put("rounds", own.size());
      double[] rates = own.stream().mapToDouble(r -> r.value("bytes") / nanosPerEcho(r) * 1e3).sorted().toArray();
      m.put("median_mb_per_s", rates.length == 0 ? Double.NaN
          : (rates[(rates.length - 1) / 2] + rates[rates.length / 2]) / 2);
      put(m, "vs_none", find(againstNone, cell));
      put(m, "vs_auth_conf", find(againstGss, cell));
      out.add(m);
    });
    return out;
  }

  private static Overhead find(List<Overhead> overheads, List<String> cell) {
    return overheads.stream().filter(o -> o.group().equals(cell.get(0)) && o.variant().equals(cell.get(1)))
        .findFirst().orElse(null);
  }

  private static void put(Map<String, Object> m, String prefix, Overhead overhead) {
    Interval ratio = overhead == null ? new Interval(1, 1, 1) : overhead.interval().asSpeedRatio();
    m.put(prefix, ratio.estimate());
    m.put(prefix + "_low", ratio.low());
    m.put(prefix + "_high", ratio.high());
  }

  /** The table of a run: rate each way, and speed over {@code none} and over GSS {@code auth-conf}. */
  static String markdown(ResultsFile results) {
    StringBuilder out = new StringBuilder("| size | mode | rounds | MB/s each way (median) | × none [95 %]"
        + " | × auth-conf (gss) [95 %] |\n|---|---|---|---|---|---|\n");
    for (Map<String, Object> s : results.summary()) {
      out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %s | %s |%n", s.get("size"), s.get("mode"),
          s.get("rounds"), (Double) s.get("median_mb_per_s"), cellOf(s, "vs_none"), cellOf(s, "vs_auth_conf")));
    }
    // As peer-bench says it: a fixed number of rounds has no precision target (it is infinite, not a number to print).
    out.append(String.format(Locale.ROOT, "%nStopped: %s.%n", results.stoppedBecause(String.format(Locale.ROOT,
        "every interval within ±%.1f points of cost", results.precision()), o -> true)));
    return out.toString();
  }

  private static String cellOf(Map<String, Object> s, String prefix) {
    return new Interval((Double) s.get(prefix), (Double) s.get(prefix + "_low"), (Double) s.get(prefix + "_high"))
        .formatRatio();
  }

  private void write(ResultsFile results) throws IOException {
    Files.createDirectories(settings.output());
    Files.writeString(settings.output().resolve("privacy-results.json"), results.toJson(), StandardCharsets.UTF_8);
    Files.writeString(settings.output().resolve("privacy-rounds.csv"), results.rowsCsv(), StandardCharsets.UTF_8);
  }
}
