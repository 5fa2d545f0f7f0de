package io.securethrift.bench.peer;

import static io.securethrift.harness.SummaryValues.format;
import static io.securethrift.harness.SummaryValues.number;

import io.securethrift.core.SecurityMode;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.ExtraCpu;
import io.securethrift.harness.Interval;
import io.securethrift.harness.Measurement;
import io.securethrift.harness.Overhead;
import io.securethrift.harness.OverheadChart;
import io.securethrift.harness.RecordCost;
import io.securethrift.harness.ReportFiles;
import io.securethrift.harness.ResultsDocs;
import io.securethrift.harness.ResultsFile;
import io.securethrift.harness.RunInfo;
import io.securethrift.harness.StoppingRule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * peer-bench's results: per mode, metric and pairing the median rate and the ratio to libthrift's with its 95 %
 * interval (the summary rows of the JSON), every cell's raw row per round, and their renderings: Markdown
 * ({@link #markdown}, from the JSON alone so docs/benchmarks.md can be regenerated from any run), CSV and a
 * self-contained HTML page with a chart per metric.
 *
 * <p>The statistics work on costs (time per operation, lower is better) as every harness tool does; a table
 * shows speed instead, securethrift's rate over libthrift's ({@link Interval#asSpeedRatio}).
 */
public final class PeerReport {
  public static final String TOOL = "peer-bench";
  /** Points of cost two runs may differ by on a metric and still agree. */
  static final double TOLERANCE = 5.0;
  /**
   * {@code peer-bench docs}: the runs' agreement and the last run's tables. Metric names follow the sizes a run chose;
   * every metric the runs have gets the same tolerance.
   */
  public static final ResultsDocs DOCS = new ResultsDocs(TOOL, PeerReport::markdown, PeerReport::tolerances, true);
  /** The bar for every row: at least par, and an interval whose lower end is at least this. */
  static final double TARGET_LOW = 0.97;

  private final ResultsFile results;

  /**
   * @param recordCosts the record cost of each TLS mode's engine, by mode name, measured in the same run
   */
  PeerReport(PeerSettings settings, RunInfo info, StoppingRule rule, StoppingRule.Decision decision,
      List<Overhead> overheads, List<Measurement> rows, Map<String, RecordCost> recordCosts) {
    Map<String, Object> s = new LinkedHashMap<>(settings.toMap());
    s.put("description", settings.describe());
    this.results = new ResultsFile(TOOL, info.toMap(), s, "mode", "pairing", Pairing.BASELINE.label(),
        decision.name(), rule.fixedRounds() ? Double.POSITIVE_INFINITY : rule.precision(), overheads,
        summaries(settings, overheads, rows, recordCosts), rows);
  }

  private static Map<String, Double> tolerances(List<ResultsFile> runs) {
    Map<String, Double> tolerances = new HashMap<>();
    runs.forEach(r -> r.overheads().forEach(o -> tolerances.put(o.metric(), TOLERANCE)));
    return tolerances;
  }

  public ResultsFile results() {
    return results;
  }

  private static List<Map<String, Object>> summaries(PeerSettings settings, List<Overhead> overheads,
      List<Measurement> rows, Map<String, RecordCost> recordCosts) {
    List<PeerMetric> metrics = settings.metrics();
    Set<List<String>> cells = new LinkedHashSet<>();
    rows.forEach(r -> cells.add(List.of(r.group(), r.variant())));
    List<Map<String, Object>> out = new ArrayList<>();
    for (List<String> cell : cells) {
      List<Measurement> own = rows.stream().filter(r -> !r.warmUp() && r.group().equals(cell.get(0))
          && r.variant().equals(cell.get(1))).collect(Collectors.toList());
      for (PeerMetric metric : metrics) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", cell.get(0));
        m.put("pairing", cell.get(1));
        m.put("metric", metric.name());
        m.put("description", metric.describe());
        m.put("unit", metric.unit());
        m.put("rounds", own.size());
        m.put("median_rate", Measurement.median(own, r -> metric.rate((long) r.value(metric.opsColumn()),
            (long) r.value(metric.nanosColumn()))));
        m.put("median_cpu_us_per_op", Measurement.median(own, r -> r.value(metric.cpuColumn()) / 1e3
            / r.value(metric.opsColumn())));
        Interval ratio = cell.get(1).equals(Pairing.BASELINE.label()) ? new Interval(1, 1, 1)
            : overheads.stream().filter(o -> o.group().equals(cell.get(0)) && o.variant().equals(cell.get(1))
                && o.metric().equals(metric.name())).findFirst().map(o -> o.interval().asSpeedRatio())
                .orElse(Interval.unbounded(Double.NaN));
        m.put("ratio", ratio.estimate());
        m.put("ratio_low", ratio.low());
        m.put("ratio_high", ratio.high());
        ExtraCpu tls = tlsCost(settings, rows, cell.get(0), cell.get(1), metric, recordCosts);
        m.put("tls_extra_cpu_us_per_mb", tls.extraUsPerMb());
        m.put("record_floor_us_per_mb", tls.floorUsPerMb());
        m.put("record_cipher_suite", Double.isNaN(tls.floorUsPerMb()) ? ""
            : recordCosts.get(cell.get(0)).cipherSuite());
        out.add(m);
      }
    }
    return out;
  }

  /**
   * A TLS mode's extra CPU per MB echoed on a bulk metric over the plaintext mode's same pairing in the same rounds,
   * beside its engine's record cost for an echo in one JVM ({@link RecordCost#echoUsPerMb()}: the cell holds client
   * and server, so each megabyte is sealed and opened going out and again coming back). Not a number for other modes
   * and metrics, or a run without the plaintext mode.
   */
  static ExtraCpu tlsCost(PeerSettings settings, List<Measurement> rows, String mode, String pairing,
      PeerMetric metric, Map<String, RecordCost> recordCosts) {
    RecordCost cost = recordCosts.getOrDefault(mode, RecordCost.NONE);
    if (!metric.kind().equals(PeerMetric.BULK) || !cost.measured()) {
      return new ExtraCpu(Double.NaN, Double.NaN);
    }
    Optional<BenchMode> plain = settings.modes().stream().filter(b -> b.security() == SecurityMode.NONE).findFirst();
    ToDoubleFunction<Measurement> usPerMb = r -> r.value(metric.cpuColumn()) / 1e3 / r.value(metric.opsColumn())
        / (metric.size() / 1e6);
    double extra = plain.map(p -> ExtraCpu.medianExtra(
        ExtraCpu.byRound(rows, r -> r.group().equals(mode) && r.variant().equals(pairing), usPerMb),
        ExtraCpu.byRound(rows, r -> r.group().equals(p.name()) && r.variant().equals(pairing), usPerMb)))
        .orElse(Double.NaN);
    return new ExtraCpu(extra, cost.echoUsPerMb());
  }

  /**
   * The run as Markdown, from its result file alone: what ran and where, the ratio table (libthrift's median rate,
   * then every other pairing's ratio to it with its 95 % interval), the rows short of the bar, and every
   * cell's median rate.
   */
  public static String markdown(ResultsFile r) {
    StringBuilder s = new StringBuilder();
    s.append(r.runLine(stopped(r))).append("\n\n");
    s.append(r.settings().get("description")).append(".\n\n");
    List<String> pairings = pairings(r);
    s.append("Rate over libthrift's own (×, 95 % interval); `our-client` is securethrift's client with libthrift's"
        + " server, `our-server` libthrift's client with securethrift's server:\n\n");
    s.append("| mode | metric | libthrift |");
    pairings.stream().skip(1).forEach(p -> s.append(' ').append(p).append(" |"));
    s.append("\n|---|---|---|").append("---|".repeat(pairings.size() - 1)).append('\n');
    Map<List<Object>, Map<String, Object>> byCell = new LinkedHashMap<>();
    r.summary().forEach(m -> byCell.put(List.of(m.get("mode"), m.get("metric"), m.get("pairing")), m));
    List<String> below = new ArrayList<>();
    for (List<Object> key : rowKeys(r)) {
      Map<String, Object> base = byCell.get(List.of(key.get(0), key.get(1), pairings.get(0)));
      s.append(String.format(Locale.ROOT, "| %s | %s | %s |", key.get(0), base.get("description"),
          format(base.get("median_rate"), "%,.0f")));
      for (String pairing : pairings.subList(1, pairings.size())) {
        Map<String, Object> m = byCell.get(List.of(key.get(0), key.get(1), pairing));
        Interval ratio = m == null ? Interval.unbounded(Double.NaN)
            : new Interval(number(m.get("ratio")), number(m.get("ratio_low")), number(m.get("ratio_high")));
        s.append(' ').append(ratio.formatRatio()).append(" |");
        if (pairing.equals(Pairing.SECURETHRIFT.label()) && !(ratio.estimate() >= 1 && ratio.low() >= TARGET_LOW)) {
          below.add(key.get(0) + " " + key.get(1) + " " + ratio.formatRatio());
        }
      }
      s.append('\n');
    }
    s.append(String.format(Locale.ROOT, "%nRows where securethrift is below 1.00× or its interval's lower end below"
        + " %.2f: %s.%n%n", TARGET_LOW, below.isEmpty() ? "none" : String.join(", ", below)));
    s.append(tlsCostTable(r, pairings));
    s.append("Median rates over rounds, and in brackets the CPU microseconds per operation of the cell's JVM (client"
        + " and server together; a busy machine inflates it far less than the rates):\n\n| mode | metric | unit |");
    pairings.forEach(p -> s.append(' ').append(p).append(" |"));
    s.append("\n|---|---|---|").append("---|".repeat(pairings.size())).append('\n');
    for (List<Object> key : rowKeys(r)) {
      Map<String, Object> base = byCell.get(List.of(key.get(0), key.get(1), pairings.get(0)));
      s.append("| ").append(key.get(0)).append(" | ").append(key.get(1)).append(" | ").append(base.get("unit"))
          .append(" |");
      for (String pairing : pairings) {
        Map<String, Object> m = byCell.get(List.of(key.get(0), key.get(1), pairing));
        s.append(' ').append(m == null ? "n/a" : format(m.get("median_rate"), "%,.0f") + " ("
            + format(m.get("median_cpu_us_per_op"), "%,.0f") + " µs)").append(" |");
      }
      s.append('\n');
    }
    return s.toString();
  }

  /**
   * Per TLS mode and bulk metric, each pairing's extra CPU per MB echoed over the plaintext mode's, its engine's
   * record cost for that megabyte and the ratio; nothing for a run without them (older result files included).
   */
  private static String tlsCostTable(ResultsFile r, List<String> pairings) {
    Map<List<Object>, Map<String, Object>> costs = new LinkedHashMap<>();
    r.summary().stream().filter(m -> number(m.get("record_floor_us_per_mb")) > 0)
        .forEach(m -> costs.put(List.of(m.get("mode"), m.get("metric"), m.get("pairing")), m));
    if (costs.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder("TLS's extra CPU per MB echoed over the plaintext mode's cell of the same"
        + " pairing in the same rounds, beside the engine's record cost for that MB, and the ratio (µs; the"
        + " engine's cost, measured in memory as the run started, is sealing and opening the MB twice, out and"
        + " back, as the cell's JVM holds client and server):\n\n| mode | metric | engine's records |");
    pairings.forEach(p -> s.append(' ').append(p).append(" |"));
    s.append("\n|---|---|---|").append("---|".repeat(pairings.size())).append('\n');
    Set<List<Object>> keys = new LinkedHashSet<>();
    costs.keySet().forEach(k -> keys.add(k.subList(0, 2)));
    for (List<Object> key : keys) {
      Map<String, Object> first = costs.get(List.of(key.get(0), key.get(1), pairings.stream()
          .filter(p -> costs.containsKey(List.of(key.get(0), key.get(1), p))).findFirst().orElseThrow()));
      s.append(String.format(Locale.ROOT, "| %s | %s | %s (%s) |", key.get(0), key.get(1),
          format(first.get("record_floor_us_per_mb"), "%,.0f"), first.get("record_cipher_suite")));
      for (String pairing : pairings) {
        Map<String, Object> m = costs.get(List.of(key.get(0), key.get(1), pairing));
        ExtraCpu cost = m == null ? new ExtraCpu(Double.NaN, Double.NaN)
            : new ExtraCpu(number(m.get("tls_extra_cpu_us_per_mb")), number(m.get("record_floor_us_per_mb")));
        s.append(' ').append(format(cost.extraUsPerMb(), "%,.0f")).append(" (")
            .append(format(cost.ratio(), "%.2f×")).append(") |");
      }
      s.append('\n');
    }
    return s.append('\n').toString();
  }

  private static List<String> pairings(ResultsFile r) {
    Set<String> p = new LinkedHashSet<>(List.of(Pairing.BASELINE.label()));
    r.summary().forEach(m -> p.add(String.valueOf(m.get("pairing"))));
    return new ArrayList<>(p);
  }

  private static Set<List<Object>> rowKeys(ResultsFile r) {
    Set<List<Object>> keys = new LinkedHashSet<>();
    r.summary().forEach(m -> keys.add(List.of(m.get("mode"), m.get("metric"))));
    return keys;
  }

  private static String stopped(ResultsFile r) {
    return r.stoppedBecause(String.format(Locale.ROOT, "every interval within +/-%.1f points of cost",
        r.precision()), o -> true);
  }

  /** A self-contained page: per metric, every pairing's speed against libthrift's with its interval; the tables. */
  String html() {
    Map<String, List<OverheadChart.Point>> charts = new LinkedHashMap<>();
    Map<String, String> titles = new LinkedHashMap<>();
    for (Map<String, Object> m : results.summary()) {
      if (!m.get("pairing").equals(Pairing.BASELINE.label())) {
        String metric = String.valueOf(m.get("metric"));
        titles.putIfAbsent(metric, String.valueOf(m.get("description")));
        Interval ratio = new Interval(number(m.get("ratio")), number(m.get("ratio_low")), number(m.get("ratio_high")));
        charts.computeIfAbsent(metric, k -> new ArrayList<>()).add(new OverheadChart.Point(m.get("mode") + " "
            + m.get("pairing"), new Interval((ratio.estimate() - 1) * 100, (ratio.low() - 1) * 100,
            (ratio.high() - 1) * 100), Double.NaN));
      }
    }
    StringBuilder page = new StringBuilder();
    charts.forEach((metric, points) -> page.append(OverheadChart.overheads(titles.get(metric)
        + ": rate vs libthrift in %, higher is faster (95 % interval)", points, "none")));
    return ReportFiles.page(TOOL, "securethrift against libthrift's own transports", page.toString(),
        markdown(results));
  }

  /** Writes peer-results.json, peer-results.csv, peer-iterations.csv and peer-results.html into {@code dir}. */
  List<Path> write(Path dir) throws IOException {
    return results.write(dir, "peer", html());
  }
}
