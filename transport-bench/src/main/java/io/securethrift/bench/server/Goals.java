package io.securethrift.bench.server;

import io.securethrift.core.TlsEngine;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.Interval;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks the run's rows against the goals of issues #12, #38 (stalled peers) and #40 (handshakes), one
 * {@link Goal} per mode, size, server or engine.
 */
final class Goals {
  static final int IDLE_TARGET = 10_000;
  static final int MAX_SERVER_THREADS = 32;
  static final double MAX_RSS_KB_PER_CONN = 40;
  /** Issue #38: what stalled peers may make a server hold. */
  static final double MAX_STALL_HELD_MB = 128;

  private Goals() {}

  static List<Goal> assess(List<Row> rows, ServerBenchOptions o) {
    List<Goal> goals = new ArrayList<>();
    idle(rows, o, goals);
    flood(rows, goals);
    stall(rows, goals);
    calls(rows, o, goals);
    handshakes(rows, goals);
    return goals;
  }

  private static void idle(List<Row> rows, ServerBenchOptions o, List<Goal> goals) {
    int target = o.idleLevels.get(o.idleLevels.size() - 1);
    for (BenchMode mode : o.modes) {
      Optional<Row> last = rows.stream().filter(r -> r.scenario().equals(IdleConnections.SCENARIO)
          && r.mode().equals(mode.name()) && r.server().equals(ServerKind.NONBLOCKING.token()))
          .reduce((a, b) -> b);
      last.ifPresent(r -> goals.add(new Goal(IdleConnections.SCENARIO, mode + ": " + target + " idle connections"
          + " held with <= " + MAX_SERVER_THREADS + " server threads and <= " + (int) MAX_RSS_KB_PER_CONN
          + " KB RSS each", format("%.0f held, %.0f server threads, %.1f KB RSS and %.1f KB heap per connection",
          r.get("held"), r.get("server_threads"), r.get("rss_kb_per_conn"), r.get("heap_kb_per_conn")),
          r.get("held") >= target && r.get("server_threads") <= MAX_SERVER_THREADS
              && r.get("rss_kb_per_conn") <= MAX_RSS_KB_PER_CONN)));
    }
  }

  private static void flood(List<Row> rows, List<Goal> goals) {
    rows.stream().filter(r -> r.scenario().equals(PreAuthFlood.SCENARIO)
        && r.server().equals(ServerKind.NONBLOCKING.token())).forEach(r -> goals.add(new Goal(PreAuthFlood.SCENARIO,
        r.mode() + ": 100 % of legitimate clients served beside the flood, p99 <= 2x unloaded",
        format("%.2f %% served, p99 %.1f ms vs %.1f ms unloaded (%.2fx)", r.get("success_pct"), r.get("p99_ms"),
            r.get("unloaded_p99_ms"), r.get("p99_vs_unloaded")),
        r.get("success_pct") == 100 && r.get("p99_vs_unloaded") <= 2)));
  }

  private static void stall(List<Row> rows, List<Goal> goals) {
    rows.stream().filter(r -> r.scenario().equals(StalledReaders.SCENARIO)).forEach(r -> goals.add(new Goal(
        StalledReaders.SCENARIO, r.server() + " " + r.mode() + ": " + r.load() + " raise what the server holds by < "
        + (int) MAX_STALL_HELD_MB + " MB, a reading client served", format("+%.0f MB held (resident peak +%.0f MB),"
        + " %.0f peers closed; reading client p50 %.2f ms (%.2f unloaded), p99 %.1f ms, %.0f calls",
        r.get("held_rise_mb"), r.get("rss_peak_rise_mb"), r.get("peers_closed"), r.get("p50_ms"),
        r.get("unloaded_p50_ms"), r.get("p99_ms"), r.get("calls_during")),
        r.get("held_rise_mb") < MAX_STALL_HELD_MB && r.get("calls_during") > 0)));
  }

  private static void calls(List<Row> rows, ServerBenchOptions o, List<Goal> goals) {
    for (Row netty : rows) {
      if (!netty.scenario().equals(ClosedLoop.SCENARIO) || !ServerKind.nonblocking(netty.server())) {
        continue;
      }
      boolean many = netty.load().startsWith(o.connections + " conns");
      double best = rows.stream().filter(r -> r.scenario().equals(ClosedLoop.SCENARIO)
          && r.mode().equals(netty.mode()) && r.load().equals(netty.load())
          && !ServerKind.nonblocking(r.server())).mapToDouble(r -> r.get("calls_per_s")).max()
          .orElse(Double.NaN);
      double ratio = netty.get("calls_per_s") / best;
      double wanted = many ? 2 : 0.95;
      goals.add(new Goal(ClosedLoop.SCENARIO, netty.server() + " " + netty.mode() + ", " + netty.load()
          + ": calls/s >= " + wanted
          + "x the better thread-pool server's", format("%.0f vs %.0f calls/s (%.2fx)", netty.get("calls_per_s"),
          best, ratio), ratio >= wanted));
    }
  }

  /**
   * Issue #40: full TLS 1.3 handshakes with mutual authentication, per key type, at least as many per second as
   * {@code openssl s_server} for the best engine and server model, and at least 0.8x for JSSE in every server model;
   * resumed handshakes (TLS 1.3 and 1.2) at least 3x full on every engine and server model, and they did resume.
   */
  private static void handshakes(List<Row> rows, List<Goal> goals) {
    List<Row> ours = rows.stream().filter(r -> r.scenario().equals(HandshakeRates.SCENARIO)
        && !r.server().equals(HandshakeRates.OPENSSL)).toList();
    ours.stream().filter(r -> r.load().equals(HandshakeRates.FULL) && r.mode().startsWith("TLSv1.3"))
        .map(Row::mode).distinct().forEach(mode -> {
          List<Row> full = ours.stream().filter(r -> r.mode().equals(mode) && r.load().equals(HandshakeRates.FULL))
              .toList();
          Row best = full.stream().max((a, b) -> Double.compare(a.get("ratio"), b.get("ratio"))).orElseThrow();
          goals.add(new Goal(HandshakeRates.SCENARIO, mode + ": the best engine's full handshakes/s >= openssl's",
              best.server() + " " + ratio(best), best.get("ratio") >= 1));
          full.stream().filter(r -> r.server().startsWith(TlsEngine.JSSE.token() + " ")).forEach(r -> goals.add(
              new Goal(HandshakeRates.SCENARIO, r.server() + " " + mode + ": full handshakes/s >= 0.8x openssl's",
              ratio(r), r.get("ratio") >= 0.8)));
        });
    ours.stream().filter(r -> r.load().equals(HandshakeRates.RESUMED)).forEach(r -> goals.add(new Goal(
        HandshakeRates.SCENARIO, r.server() + " " + r.mode() + ": resumed handshakes/s >= 3x full (and they did"
        + " resume)", format("%.0f/s, %s full, %.0f %% resumed", r.get("handshakes_per_s"), ratio(r),
        r.get("resumed_pct")), r.get("ratio") >= 3 && r.get("resumed_pct") >= 90)));
  }

  /** A row's ratio with its interval: {@code 1.03x [0.99, 1.07]}. */
  private static String ratio(Row r) {
    return new Interval(r.get("ratio"), r.get("ratio_low"), r.get("ratio_high")).formatRatio();
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
