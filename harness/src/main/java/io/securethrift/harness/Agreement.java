package io.securethrift.harness;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Whether several runs of one benchmark give the same answer, the test both benchmarks' issues set for a default run
 * repeated: for every group, variant and metric, each run's overhead with its interval, the spread of the estimates,
 * and a verdict. Runs agree on a metric with tolerance T when every estimate lies within T points of the estimates'
 * midpoint (a spread of at most 2T) and, where coverage is judged, every run's interval covers every other run's
 * estimate; metrics without a tolerance are shown and not judged. Below the table, per metric, how honest the
 * intervals were against the runs' differences ({@link Calibration}), and how many rows honest intervals would have
 * covered. Written as Markdown, for the documents the benchmarks' {@code docs} commands keep (see
 * {@link DocsSection}).
 */
public final class Agreement {
  private final List<ResultsFile> runs;
  private final List<String> names;
  private final Map<String, Double> tolerances;
  private final boolean coverageJudged;

  /**
   * @param runs the runs, in the order they were made
   * @param names a name for each run (its file, say)
   * @param tolerances points allowed per metric name (for example {@code cpu} 3, {@code wall} 5)
   * @param coverageJudged whether a row within its tolerance must also have every interval cover every other run's
   *     estimate to agree; either way the calibration below the table counts the rows that do
   */
  public Agreement(List<ResultsFile> runs, List<String> names, Map<String, Double> tolerances,
      boolean coverageJudged) {
    if (runs.isEmpty() || runs.size() != names.size()) {
      throw new IllegalArgumentException("give at least one run and a name for each (" + runs.size() + " runs, "
          + names.size() + " names)");
    }
    this.runs = List.copyOf(runs);
    this.names = List.copyOf(names);
    this.tolerances = Map.copyOf(tolerances);
    this.coverageJudged = coverageJudged;
  }

  /**
   * Names for result files in a table: each file with its folder ({@code run-1/ingest-results.json}), since every
   * run of a tool writes a file of the same name.
   */
  public static List<String> names(List<Path> files) {
    return files.stream().map(f -> f.getParent() == null ? f.toString()
        : f.getParent().getFileName() + "/" + f.getFileName()).collect(Collectors.toList());
  }

  /** One row of the table: a group, variant and metric across the runs. */
  public record Row(String group, String variant, String metric, List<Interval> intervals, double spread,
      Verdict verdict) {}

  /** What a row says about the runs. */
  public enum Verdict {
    AGREE("agree"), TOO_FAR_APART("estimates too far apart"), NOT_COVERED("an interval misses another run's estimate"),
    NO_INTERVAL("a run has no interval"), MISSING("not in every run"), NOT_JUDGED("not judged");

    private final String text;

    Verdict(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Every group, variant and metric of the first run, in its order, followed by those only later runs have. */
  public List<Row> rows() {
    Map<String, List<Interval>> byKey = new LinkedHashMap<>();
    Map<String, Overhead> first = new LinkedHashMap<>();
    for (int i = 0; i < runs.size(); i++) {
      for (Overhead o : runs.get(i).overheads()) {
        String key = o.group() + "\u0000" + o.variant() + "\u0000" + o.metric();
        first.putIfAbsent(key, o);
        List<Interval> list = byKey.computeIfAbsent(key, k -> new ArrayList<>());
        while (list.size() < i) {
          list.add(null);
        }
        list.add(o.interval());
      }
    }
    List<Row> rows = new ArrayList<>();
    byKey.forEach((key, intervals) -> {
      while (intervals.size() < runs.size()) {
        intervals.add(null);
      }
      Overhead o = first.get(key);
      rows.add(row(o.group(), o.variant(), o.metric(), intervals));
    });
    return rows;
  }

  private Row row(String group, String variant, String metric, List<Interval> intervals) {
    if (intervals.contains(null)) {
      return new Row(group, variant, metric, intervals, Double.NaN, Verdict.MISSING);
    }
    double max = intervals.stream().mapToDouble(Interval::estimate).max().orElseThrow();
    double min = intervals.stream().mapToDouble(Interval::estimate).min().orElseThrow();
    double spread = max - min;
    Double tolerance = tolerances.get(metric);
    if (tolerance == null) {
      return new Row(group, variant, metric, intervals, spread, Verdict.NOT_JUDGED);
    }
    if (intervals.stream().anyMatch(i -> !i.bounded())) {
      return new Row(group, variant, metric, intervals, spread, Verdict.NO_INTERVAL);
    }
    if (spread > 2 * tolerance) {
      return new Row(group, variant, metric, intervals, spread, Verdict.TOO_FAR_APART);
    }
    return new Row(group, variant, metric, intervals, spread, !coverageJudged || covered(intervals) ? Verdict.AGREE
        : Verdict.NOT_COVERED);
  }

  /** Whether every interval covers every other run's estimate. */
  private static boolean covered(List<Interval> intervals) {
    return intervals.stream().allMatch(a -> intervals.stream()
        .allMatch(b -> b.estimate() >= a.low() && b.estimate() <= a.high()));
  }

  /** Whether every judged row agrees. */
  public boolean agree() {
    return rows().stream().allMatch(r -> r.verdict() == Verdict.AGREE || r.verdict() == Verdict.NOT_JUDGED);
  }

  /** The runs, one line each, then the table and a closing line naming the rows that do not agree. */
  public String markdown() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < runs.size(); i++) {
      s.append(String.format(Locale.ROOT, "- Run %d (`%s`): %s%n", i + 1, names.get(i), describe(runs.get(i))));
    }
    s.append('\n');
    ResultsFile first = runs.get(0);
    s.append("| ").append(first.groupLabel()).append(" | ").append(first.variantLabel()).append(" | metric");
    for (int i = 0; i < runs.size(); i++) {
      s.append(" | run ").append(i + 1);
    }
    s.append(" | spread (points) | verdict |\n|---|---|---");
    s.append("|---".repeat(runs.size())).append("|---|---|\n");
    List<Row> rows = rows();
    for (Row r : rows) {
      s.append("| ").append(r.group()).append(" | ").append(r.variant()).append(" | ").append(r.metric());
      for (Interval i : r.intervals()) {
        s.append(" | ").append(i == null ? "—" : i.format());
      }
      s.append(" | ").append(Double.isNaN(r.spread()) ? "—" : String.format(Locale.ROOT, "%.1f", r.spread()));
      s.append(" | ").append(r.verdict()).append(" |\n");
    }
    s.append('\n').append(tolerances.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> String.format(Locale.ROOT, "%s ±%.0f points", e.getKey(), e.getValue()))
        .collect(Collectors.joining(", ", "Tolerances: ", ".")));
    if (!coverageJudged) {
      s.append(" A row within its tolerance agrees whether or not its intervals cover each other's estimates.");
    }
    List<Row> off = rows.stream()
        .filter(r -> r.verdict() != Verdict.AGREE && r.verdict() != Verdict.NOT_JUDGED).collect(Collectors.toList());
    s.append(off.isEmpty() ? " Every judged row agrees.\n" : " Not agreeing: " + off.stream()
        .map(r -> r.group() + " " + r.variant() + " " + r.metric() + " (" + r.verdict() + ")")
        .collect(Collectors.joining(", ")) + ".\n");
    if (runs.size() > 1) {
      s.append('\n').append(calibration(rows));
    }
    return s.toString();
  }

  /**
   * Per judged metric, how the intervals fared against the runs' differences ({@link Calibration}): how many rows
   * passed the coverage test against how many exactly honest intervals would pass, and Q / df.
   */
  private String calibration(List<Row> rows) {
    double perRow = Calibration.allCovered(runs.size());
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "How honest the intervals are: were every"
        + " interval exactly a 95 %% interval, all of a row's %d intervals would cover the other runs' estimates in"
        + " %.0f %% of rows, since the runs' estimates each move by their own noise. The runs' differences against"
        + " their intervals, Cochran's Q per degree of freedom on the log scale, is 1 on average for honest"
        + " intervals.%n", runs.size(), 100 * perRow));
    for (String metric : tolerances.keySet().stream().sorted().collect(Collectors.toList())) {
      List<List<Interval>> judged = rows.stream().filter(r -> r.metric().equals(metric))
          .filter(r -> !r.intervals().contains(null)
              && r.intervals().stream().allMatch(i -> i.bounded() && i.high() > i.low()))
          .map(Row::intervals).collect(Collectors.toList());
      if (judged.isEmpty()) {
        continue;
      }
      long covered = judged.stream().filter(Agreement::covered).count();
      Calibration c = Calibration.of(judged);
      s.append(String.format(Locale.ROOT, "- %s: %d of %d rows covered (honest intervals: %.1f expected, all %d"
          + " with probability %s %%); Q/df %.2f on %d degrees of freedom (honest intervals exceed %.2f one time"
          + " in 20).%n", metric, covered, judged.size(), perRow * judged.size(), judged.size(),
          twoDigits(100 * Math.pow(perRow, judged.size())), c.ratio(), c.degrees(), c.upperBound()));
    }
    return s.toString();
  }

  /** A percentage to two significant digits, so that 0.05 % of eighteen rows does not print as 0.0 %. */
  private static String twoDigits(double percent) {
    return new BigDecimal(percent).round(new MathContext(2)).toPlainString();
  }

  private static String describe(ResultsFile r) {
    Map<String, Object> info = r.info();
    return String.format(Locale.ROOT, "commit %s, started %s, load average %s → %s, %s s, stopped %s",
        info.get("commit"), info.get("started"), number(info.get("loadAverageStart")),
        number(info.get("loadAverageEnd")), number(info.get("wallSeconds")), r.stopped());
  }

  private static String number(Object value) {
    return value instanceof Number n ? String.format(Locale.ROOT, "%.1f", n.doubleValue()) : String.valueOf(value);
  }
}
