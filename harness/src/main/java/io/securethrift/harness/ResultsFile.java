package io.securethrift.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A benchmark run's results as one JSON document, and its raw rows as CSV: the run's info and settings, every
 * overhead with its interval and per-round ratios (so {@link Compare} can redo the statistics), the tool's own
 * summary rows, and every iteration's raw row.
 *
 * @param tool the command that wrote it, for example {@code ingest-bench}
 * @param groupLabel the column name of {@link Measurement#group()} (for example {@code server})
 * @param variantLabel the column name of {@link Measurement#variant()} (for example {@code mode})
 * @param baseline the variant overheads are measured against
 * @param stopped why the run ended ({@link StoppingRule.Decision} name)
 * @param precision the precision target in points (infinite for a fixed number of rounds)
 * @param summary the tool's per-variant summary rows, written as they are
 */
public record ResultsFile(String tool, Map<String, Object> info, Map<String, Object> settings, String groupLabel,
    String variantLabel, String baseline, String stopped, double precision, List<Overhead> overheads,
    List<Map<String, Object>> summary, List<Measurement> rows) {

  public ResultsFile {
    info = new LinkedHashMap<>(info);
    settings = new LinkedHashMap<>(settings);
    overheads = List.copyOf(overheads);
    summary = List.copyOf(summary);
    rows = List.copyOf(rows);
  }

  public String toJson() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("tool", tool);
    root.put("info", info);
    root.put("settings", settings);
    Map<String, Object> labels = new LinkedHashMap<>();
    labels.put("group", groupLabel);
    labels.put("variant", variantLabel);
    labels.put("baseline", baseline);
    root.put("labels", labels);
    root.put("stopped", stopped);
    root.put("precision", precision);
    List<Object> list = new ArrayList<>();
    for (Overhead o : overheads) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put(groupLabel, o.group());
      m.put(variantLabel, o.variant());
      m.put("metric", o.metric());
      m.put("rounds", o.rounds());
      m.put("estimate", o.interval().estimate());
      m.put("low", o.interval().low());
      m.put("high", o.interval().high());
      m.put("halfWidth", o.interval().halfWidth());
      m.put("real", o.interval().excludesZero());
      m.put("ratios", o.ratios());
      m.put("widening", o.widening());
      list.add(m);
    }
    root.put("overheads", list);
    root.put("summary", summary);
    List<Object> raw = new ArrayList<>();
    for (Measurement r : rows) {
      raw.add(row(r));
    }
    root.put("rows", raw);
    return Json.write(root);
  }

  private Map<String, Object> row(Measurement r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(groupLabel, r.group());
    m.put(variantLabel, r.variant());
    m.put("round", r.round());
    m.putAll(r.values());
    return m;
  }

  /** Every raw row as CSV: group, variant, round, then every value column in first-seen order. */
  public String rowsCsv() {
    Set<String> columns = new LinkedHashSet<>();
    rows.forEach(r -> columns.addAll(r.values().keySet()));
    StringBuilder out = new StringBuilder(groupLabel + "," + variantLabel + ",round");
    columns.forEach(c -> out.append(',').append(c));
    out.append('\n');
    for (Measurement r : rows) {
      out.append(cell(r.group())).append(',').append(cell(r.variant())).append(',').append(r.round());
      for (String c : columns) {
        out.append(',').append(cell(r.values().get(c)));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * One CSV cell, the same in every file the harness writes: a number to 3 decimals (a non-finite one or none as an
   * empty cell), anything else as text, quoted as RFC 4180 says when it holds a comma, a quote or a line break.
   */
  static String cell(Object o) {
    if (o == null) {
      return "";
    }
    if (o instanceof Double || o instanceof Float) {
      double d = ((Number) o).doubleValue();
      return Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "";
    }
    String text = String.valueOf(o);
    return text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")
        ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
  }

  /**
   * The sentence a report opens with: when and where the run ran ({@link RunInfo}'s figures) and why it stopped,
   * {@code stopped} being {@link #stoppedBecause}'s answer.
   */
  public String runLine(String stopped) {
    return String.format(Locale.ROOT, "Run of %s, commit %s, %s, %s cores, load average %s at the start and %s at"
        + " the end, %s s in all; stopped: %s.", info.get("started"), info.get("commit"), info.get("jdk"),
        SummaryValues.format(info.get("cores"), "%.0f"), SummaryValues.format(info.get("loadAverageStart"), "%.2f"),
        SummaryValues.format(info.get("loadAverageEnd"), "%.2f"), SummaryValues.format(info.get("wallSeconds"),
            "%.0f"), stopped);
  }

  /**
   * Why the rounds stopped, as a report says it: {@code precise} when every interval was within the precision, the
   * time budget spent (naming each judged overhead still wider, or without an interval), or the fixed rounds done.
   *
   * @param precise what being precise meant for this benchmark ({@code "every interval within +/-3.0 points"})
   * @param judged the overheads the stopping rule judged
   */
  public String stoppedBecause(String precise, Predicate<Overhead> judged) {
    String why = String.valueOf(stopped);
    switch (why) {
      case "PRECISE":
        return precise;
      case "OUT_OF_TIME":
        List<String> unmet = overheads.stream().filter(judged.and(o -> !(o.interval().halfWidth() <= precision)))
            .map(o -> o.group() + " " + o.variant() + " " + o.metric() + (o.interval().bounded()
                ? String.format(Locale.ROOT, " (+/-%.1f)", o.interval().halfWidth())
                : " (no interval: fewer than " + Bootstrap.MIN_ROUNDS + " rounds)"))
            .collect(Collectors.toList());
        return "the time budget was spent" + (unmet.isEmpty() ? "" : String.format(Locale.ROOT,
            ", not within +/-%.1f points: ", precision) + String.join(", ", unmet));
      case "ROUNDS_DONE":
        return "the fixed number of rounds was done";
      default:
        return why;
    }
  }

  /** The summary rows as CSV, one line per row, the columns of the first row in its order. */
  public String summaryCsv() {
    StringBuilder out = new StringBuilder();
    if (summary.isEmpty()) {
      return "";
    }
    out.append(summary.get(0).keySet().stream().map(ResultsFile::cell).collect(Collectors.joining(","))).append('\n');
    for (Map<String, Object> m : summary) {
      out.append(m.values().stream().map(ResultsFile::cell).collect(Collectors.joining(","))).append('\n');
    }
    return out.toString();
  }

  /**
   * Writes a benchmark's four files into {@code dir}: {@code <prefix>-results.json} (this file, which
   * {@code compare} and {@code docs} read), {@code <prefix>-results.csv} (the summary),
   * {@code <prefix>-iterations.csv} (every raw row) and {@code <prefix>-results.html} ({@code html}).
   *
   * @return the paths written, in that order
   */
  public List<Path> write(Path dir, String prefix, String html) throws IOException {
    return ReportFiles.write(dir, List.of(Map.entry(prefix + "-results.json", toJson()),
        Map.entry(prefix + "-results.csv", summaryCsv()), Map.entry(prefix + "-iterations.csv", rowsCsv()),
        Map.entry(prefix + "-results.html", html)));
  }


  /**
   * Reads the result file {@code tool} wrote at {@code file}.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read, is not a result file, or was written by
   *     another tool
   */
  public static ResultsFile read(Path file, String tool) throws IOException {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(file + " cannot be read; give " + tool + " result files (JSON)");
    }
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString(), tool);
  }

  /**
   * Reads {@code text}, a result file of {@code tool} named {@code source} in errors.
   *
   * @throws IllegalArgumentException naming {@code source} when it is not a result file or was written by another tool
   */
  static ResultsFile parse(String text, String source, String tool) {
    ResultsFile r;
    try {
      r = fromJson(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + " is not a result file of " + tool + ": " + e.getMessage());
    }
    if (!tool.equals(r.tool())) {
      throw new IllegalArgumentException(source + " was written by " + printable(r.tool()) + ", not " + tool);
    }
    return r;
  }

  /** Reads a document {@link #toJson} wrote; a document of another shape is refused naming what is missing. */
  @SuppressWarnings("unchecked")
  public static ResultsFile fromJson(String text) {
    Map<String, Object> root = as(Json.parse(text), Map.class, "the document");
    Map<String, Object> labels = as(required(root, "labels"), Map.class, "\"labels\"");
    String group = as(required(labels, "group"), String.class, "\"group\"");
    String variant = as(required(labels, "variant"), String.class, "\"variant\"");
    List<Overhead> overheads = new ArrayList<>();
    List<Object> written = as(required(root, "overheads"), List.class, "\"overheads\"");
    for (Object o : written) {
      Map<String, Object> m = as(o, Map.class, "an overhead");
      List<Object> r = as(required(m, "ratios"), List.class, "\"ratios\"");
      double[] ratios = r.stream().mapToDouble(x -> ResultsFile.<Number>as(x, Number.class, "a ratio").doubleValue())
          .toArray();
      overheads.add(new Overhead(as(required(m, group), String.class, "an overhead's group"),
          as(required(m, variant), String.class, "an overhead's variant"),
          as(required(m, "metric"), String.class, "\"metric\""), ratios, widening(m.get("widening")),
          new Interval(number(m.get("estimate"), "an overhead's \"estimate\""),
              number(m.get("low"), "an overhead's \"low\""), number(m.get("high"), "an overhead's \"high\""))));
    }
    List<Measurement> rows = new ArrayList<>();
    List<Object> raw = as(root.getOrDefault("rows", List.of()), List.class, "\"rows\"");
    for (Object o : raw) {
      Map<String, Object> m = new LinkedHashMap<>(ResultsFile.<Map<String, Object>>as(o, Map.class, "a row"));
      String g = as(m.remove(group), String.class, "a row's group");
      String v = as(m.remove(variant), String.class, "a row's variant");
      int round = (int) number(m.remove("round"), "a row's \"round\"");
      Map<String, Number> values = new LinkedHashMap<>();
      m.forEach((k, x) -> values.put(k, x == null ? Double.NaN : as(x, Number.class, "a row's value")));
      rows.add(new Measurement(g, v, round, values));
    }
    List<Object> summary = as(root.getOrDefault("summary", List.of()), List.class, "\"summary\"");
    summary.forEach(line -> as(line, Map.class, "a summary line"));
    return new ResultsFile(optional(root.get("tool"), String.class, "\"tool\""),
        as(root.getOrDefault("info", Map.of()), Map.class, "\"info\""),
        as(root.getOrDefault("settings", Map.of()), Map.class, "\"settings\""), group, variant,
        optional(labels.get("baseline"), String.class, "\"baseline\""),
        optional(root.get("stopped"), String.class, "\"stopped\""), number(root.get("precision"), "\"precision\""),
        overheads, (List<Map<String, Object>>) (List<?>) summary, rows);
  }

  /** {@code value} as a {@code type}, or a refusal saying {@code what} was not one. */
  @SuppressWarnings("unchecked")
  private static <T> T as(Object value, Class<?> type, String what) {
    if (!type.isInstance(value)) {
      String kind = type == Map.class ? "an object" : type == List.class ? "an array" : type == String.class
          ? "a string" : "a number";
      throw new IllegalArgumentException("not a benchmark result file: " + what + " is not " + kind);
    }
    return (T) value;
  }

  /** {@code value} as a {@code type} like {@link #as}, or null when the file leaves it out. */
  private static <T> T optional(Object value, Class<?> type, String what) {
    return value == null ? null : as(value, type, what);
  }

  private static Object required(Map<String, Object> m, String key) {
    Object v = m.get(key);
    if (v == null) {
      throw new IllegalArgumentException("not a benchmark result file: no \"" + printable(key) + "\"");
    }
    return v;
  }

  /**
   * A name read from a file (a tool, a label), fit for one line of an error: control characters as '?', at most 40
   * characters.
   */
  private static String printable(String name) {
    if (name == null) {
      return "nothing";
    }
    String shown = name.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    return shown.length() > 40 ? shown.substring(0, 40) + "..." : shown;
  }

  /**
   * An overhead's widening ({@link Overhead#widening}): 1 in files written before intervals carried the forks'
   * offsets, which have none; otherwise a number of at least 1, since {@code compare} widens by it.
   */
  private static double widening(Object o) {
    if (o == null) {
      return 1;
    }
    if (!(o instanceof Number n) || !(n.doubleValue() >= 1) || Double.isInfinite(n.doubleValue())) {
      throw new IllegalArgumentException("not a benchmark result file: an overhead's \"widening\" must be a finite"
          + " number of at least 1, got " + (o instanceof Number ? o : "a " + o.getClass().getSimpleName()));
    }
    return n.doubleValue();
  }

  /** {@code o} as a number, NaN when the file leaves it out (null), or a refusal saying {@code what} was not one. */
  private static double number(Object o, String what) {
    return o == null ? Double.NaN : ResultsFile.<Number>as(o, Number.class, what).doubleValue();
  }
}
