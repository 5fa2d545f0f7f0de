package io.securethrift.ingest.bench;

import io.securethrift.harness.Bootstrap;
import io.securethrift.harness.ExtraCpu;
import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.OverheadChart;
import io.securethrift.harness.PairedAnalysis;
import io.securethrift.harness.RecordCost;
import io.securethrift.harness.ReportFiles;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes the benchmark's results: the table (printed), the per-mode summary as CSV, every iteration's raw row as CSV,
 * everything as JSON (what {@code ingest-bench compare} reads), and a self-contained HTML page with SVG charts of the
 * overheads with their intervals beside Accumulo 1.7's published figures, and of each side's CPU per entry.
 */
final class BenchReport {
  /** Accumulo 1.7's published overheads (2×10⁹ entries, 8 tablet servers; docs/benchmarks.md), by our mode names. */
  static final Map<String, Double> ACCUMULO_1_7 = Map.of("tls-jsse", 5.92, "tls-conscrypt", 5.92, "sasl-auth", 13.16,
      "sasl-auth-int", 21.34, "sasl-auth-conf", 21.08);

  private final String description;
  private final Map<String, Object> settings;
  private final RunInfo info;
  private final StoppingRule rule;
  private final StoppingRule.Decision decision;
  private final String stopMetric;
  private final String baseline;
  private final List<ModeSummary> summaries;
  private final List<Overhead> overheads;
  private final List<Measurement> rows;
  private final Map<String, RecordCost> recordCosts;

  /**
   * @param stopMetric the metric whose intervals the stopping rule judged ({@link IngestBenchmark#CPU} or
   *     {@link IngestBenchmark#WALL})
   * @param recordCosts the record cost of each TLS mode's engine, by mode, measured in the same run
   */
  BenchReport(String description, Map<String, Object> settings, RunInfo info, StoppingRule rule,
      StoppingRule.Decision decision, String stopMetric, String baseline, List<ModeSummary> summaries,
      List<Overhead> overheads, List<Measurement> rows, Map<String, RecordCost> recordCosts) {
    this.description = description;
    this.settings = settings;
    this.info = info;
    this.rule = rule;
    this.decision = decision;
    this.stopMetric = stopMetric;
    this.baseline = baseline;
    this.summaries = List.copyOf(summaries);
    this.overheads = List.copyOf(overheads);
    this.rows = List.copyOf(rows);
    this.recordCosts = Map.copyOf(recordCosts);
  }

  /** The overheads on the stopping metric wider than the precision target (none for a fixed number of rounds). */
  List<Overhead> unmet() {
    return rule.fixedRounds() ? List.of() : rule.unmet(overheads.stream()
        .filter(o -> o.metric().equals(stopMetric)).collect(Collectors.toList()));
  }

  private boolean met(ModeSummary s) {
    return s.mode().equals(baseline) || rule.fixedRounds()
        || rule.met(stopMetric.equals(IngestBenchmark.CPU) ? s.cpuOverhead() : s.wallOverhead());
  }

  private String metricName() {
    return stopMetric.equals(IngestBenchmark.CPU) ? "CPU/entry" : "wall-time";
  }

  /**
   * The table, with a line saying why the run stopped and which modes did not reach the precision target. A figure
   * the run could not take shows as "-": a server's collector, for one, where a mode takes turns with its baseline in
   * one server JVM (its collections cannot be told apart by mode).
   */
  String table() {
    StringBuilder s = new StringBuilder(description).append('\n');
    int modeWidth = summaries.stream().mapToInt(m -> m.mode().length()).max().orElse(0);
    String head = "%-11s %-" + Math.max(15, modeWidth) + "s";
    s.append(String.format(Locale.ROOT, head + " %6s %8s %10s  %-24s %-24s %8s %8s %9s %9s %8s %8s %8s%n",
        "server", "mode", "rounds", "wall ms", "entries/s", "wall overhead", "CPU/entry overhead", "cli us/e",
        "srv us/e", "cli us/MB", "srv us/MB", "cli GC", "srv GC", "wire MB"));
    for (ModeSummary m : summaries) {
      boolean base = m.mode().equals(baseline);
      s.append(String.format(Locale.ROOT, head + " %6d %8.0f %10.0f  %-24s %-24s %8s %8s %9s %9s %8s %8s %8s%n",
          m.server(), m.mode(), m.rounds(), m.wallMs(), m.entriesPerSecond(),
          base ? "baseline" : m.wallOverhead().format(), base ? "baseline" : m.cpuOverhead().format(),
          cell("%.2f", m.clientUsPerEntry()), cell("%.2f", m.serverUsPerEntry()), cell("%.0f", m.clientUsPerMb()),
          cell("%.0f", m.serverUsPerMb()), cell("%.0f", m.clientGcMs()), cell("%.0f", m.serverGcMs()),
          cell("%.1f", m.clientWireMb())));
    }
    s.append(stopLine()).append('\n');
    s.append(tlsCost());
    return s.toString();
  }

  private RecordCost recordCost(ModeSummary m) {
    return recordCosts.getOrDefault(m.mode(), RecordCost.NONE);
  }

  private ModeSummary baselineOf(ModeSummary m) {
    return summaries.stream().filter(b -> b.server().equals(m.server()) && b.mode().equals(baseline)).findFirst()
        .orElse(null);
  }

  /**
   * CPU per MB of payload a mode's side spends beyond the baseline's: the median over rounds of the difference to the
   * baseline's turn in the mode's own processes where it has them (as its CPU overhead is paired), else to the
   * baseline's processes in the same round on the same server model.
   */
  private double extraUsPerMb(ModeSummary m, boolean client) {
    if (m.mode().equals(baseline)) {
      return 0;
    }
    String own = PairedAnalysis.ownBaseline(m.mode(), baseline);
    boolean paired = rows.stream().anyMatch(r -> r.group().equals(m.server()) && r.variant().equals(own));
    return ExtraCpu.medianExtra(usPerMbByRound(m.server(), m.mode(), client),
        usPerMbByRound(m.server(), paired ? own : baseline, client));
  }

  private Map<Integer, Double> usPerMbByRound(String server, String variant, boolean client) {
    return ExtraCpu.byRound(rows, r -> r.group().equals(server) && r.variant().equals(variant),
        r -> IterationRow.workCpuMs(r, client ? IterationRow.CLIENT : IterationRow.SERVER) * 1e3
            / (r.value(IterationRow.PAYLOAD_BYTES) / 1e6));
  }

  /**
   * The Thrift bytes a megabyte of payload travels in: the records seal the messages, framing and keys included, so
   * the engine's floor per MB of payload is its record cost times this. The baseline's client writes nothing else.
   */
  private double thriftBytesPerPayloadByte(ModeSummary m) {
    ModeSummary base = baselineOf(m);
    return base == null ? Double.NaN : base.clientWireMb() / base.payloadMb();
  }

  /** The engine's record cost per MB of payload for the side that sends it ({@code client}) or receives it. */
  private double floorUsPerMb(ModeSummary m, boolean client) {
    return recordCost(m).usPerMb(client) * thriftBytesPerPayloadByte(m);
  }

  /**
   * Each TLS mode's extra CPU per MB of payload on each side beside its engine's record cost for the Thrift bytes of
   * that payload: the client seals them and the server opens them, so those are the floors, and the ratio says how far
   * above them the mode runs.
   */
  private String tlsCost() {
    List<ModeSummary> tls = summaries.stream().filter(m -> recordCost(m).measured()).collect(Collectors.toList());
    if (tls.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder("TLS cost per MB of payload against the engine's own records (measured after"
        + " the rounds, in memory):\n");
    String row = "%-11s %-15s %10s %8s %6s %10s %8s %6s  %s%n";
    s.append(String.format(Locale.ROOT, row, "server", "mode", "cli extra", "seal", "ratio", "srv extra", "open",
        "ratio", "suite"));
    for (ModeSummary m : tls) {
      ExtraCpu client = new ExtraCpu(extraUsPerMb(m, true), floorUsPerMb(m, true));
      ExtraCpu server = new ExtraCpu(extraUsPerMb(m, false), floorUsPerMb(m, false));
      s.append(String.format(Locale.ROOT, row, m.server(), m.mode(), cell("%.0f", client.extraUsPerMb()),
          cell("%.0f", client.floorUsPerMb()), cell("%.2f", client.ratio()), cell("%.0f", server.extraUsPerMb()),
          cell("%.0f", server.floorUsPerMb()), cell("%.2f", server.ratio()), recordCost(m).cipherSuite()));
    }
    return s.append(String.format(Locale.ROOT, "(us per MB of payload; extra: over %s's turns, in the level's own"
        + " processes where it has them; seal/open: the engine's records for the %.2f MB of Thrift messages each MB"
        + " of payload travels in)%n",
        baseline, tls.stream().mapToDouble(this::thriftBytesPerPayloadByte).average().orElse(Double.NaN)))
        .toString();
  }

  private static String cell(String format, double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format, value);
  }

  private String stopLine() {
    int rounds = summaries.stream().mapToInt(ModeSummary::rounds).max().orElse(0);
    String took = String.format(Locale.ROOT, "%d rounds, %.0f s in all", rounds, info.wallTime().toMillis() / 1e3);
    switch (decision) {
      case PRECISE:
        return String.format(Locale.ROOT, "stopped: every %s interval within +/-%.1f points after %s",
            metricName(), rule.precision(), took);
      case ROUNDS_DONE:
        return rule.fixedRounds() ? "stopped: the fixed number of rounds is done (" + took + ")"
            : "stopped: --max-rounds reached (" + took + ")" + unmetLine();
      default:
        return "stopped: --max-time " + rule.maxTime().toSeconds() + " s would be passed by another round (" + took
            + ")" + unmetLine();
    }
  }

  private String unmetLine() {
    List<Overhead> unmet = unmet();
    if (unmet.isEmpty()) {
      return "";
    }
    return String.format(Locale.ROOT, "; %s not within +/-%.1f points: ", metricName(), rule.precision())
        + unmet.stream()
        .map(o -> o.group() + " " + o.variant() + (o.interval().bounded() ? String.format(Locale.ROOT, " (+/-%.1f)",
            o.interval().halfWidth()) : " (no interval: fewer than " + Bootstrap.MIN_ROUNDS + " rounds)"))
        .collect(Collectors.joining(", "));
  }

  private List<Map<String, Object>> summaryMaps() {
    List<Map<String, Object>> maps = new ArrayList<>();
    for (ModeSummary m : summaries) {
      Map<String, Object> map = m.toMap(met(m));
      map.put("client_extra_us_per_mb", extraUsPerMb(m, true));
      map.put("server_extra_us_per_mb", extraUsPerMb(m, false));
      map.put("record_seal_us_per_mb", floorUsPerMb(m, true));
      map.put("record_open_us_per_mb", floorUsPerMb(m, false));
      map.put("record_cipher_suite", recordCost(m).cipherSuite());
      maps.add(map);
    }
    return maps;
  }

  ResultsFile results() {
    return new ResultsFile(ResultsTable.TOOL, info.toMap(), settings, "server", "mode", baseline, decision.name(),
        rule.precision(), overheads, summaryMaps(), rows);
  }

  /** A self-contained page: the overheads with intervals and Accumulo's marks, CPU per entry per side, the table. */
  String html() {
    List<OverheadChart.Point> wall = new ArrayList<>();
    List<OverheadChart.Point> cpu = new ArrayList<>();
    List<OverheadChart.Bars> costs = new ArrayList<>();
    for (ModeSummary m : summaries) {
      String label = summaries.stream().map(ModeSummary::server).distinct().count() > 1
          ? m.server() + " " + m.mode() : m.mode();
      costs.add(new OverheadChart.Bars(label, new double[] {m.clientUsPerEntry(), m.serverUsPerEntry()}));
      if (!m.mode().equals(baseline)) {
        wall.add(new OverheadChart.Point(label, m.wallOverhead(), ACCUMULO_1_7.getOrDefault(m.mode(), Double.NaN)));
        cpu.add(new OverheadChart.Point(label, m.cpuOverhead(), Double.NaN));
      }
    }
    String reference = "Accumulo 1.7 published (SSL +5.9 %, SASL auth +13 %, auth-int/auth-conf +21 %)";
    return ReportFiles.page("continuous ingest", "Continuous ingest: cost of each security level", "<p>"
        + OverheadChart.escape(description) + "</p>\n"
        + OverheadChart.overheads("Wall-time overhead vs " + baseline + " (95 % interval)", wall, reference)
        + OverheadChart.overheads("CPU per entry (client + server) vs " + baseline + " (95 % interval)", cpu,
            "none for CPU")
        + OverheadChart.bars("CPU per entry", "CPU microseconds per entry (median)", List.of("client", "server"),
            costs), table());
  }

  /**
   * Writes ingest-results.json, ingest-results.csv (per mode), ingest-iterations.csv (every iteration) and
   * ingest-results.html into {@code dir}; returns the paths written.
   */
  List<Path> write(Path dir) throws IOException {
    return results().write(dir, "ingest", html());
  }

  /** The interval of a mode's overhead on a metric, zero without bounds for the baseline. */
  static Interval overheadOf(List<Overhead> overheads, String server, String mode, String metric, String baseline) {
    if (mode.equals(baseline)) {
      return Interval.unbounded(0);
    }
    return overheads.stream().filter(o -> o.group().equals(server) && o.variant().equals(mode)
        && o.metric().equals(metric)).findFirst().map(Overhead::interval).orElse(Interval.unbounded(Double.NaN));
  }
}
