package io.securethrift.ingest.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes the benchmark's results as Accumulo's table (printed), CSV, JSON, and a self-contained HTML page with an SVG
 * chart of median time and min-max bars per level. The first level is the baseline for the percentages.
 */
final class BenchReport {
  private static final String[] COLUMNS = {"mode", "iterations", "median_ms", "stddev_ms", "min_ms", "max_ms",
      "median_pct_vs_none", "min_pct_vs_none", "max_pct_vs_none", "pct_vs_previous", "entries_per_s", "mb_per_s",
      "client_cpu_s", "server_cpu_s"};

  private final List<ModeSummary> rows;
  private final String settings;

  BenchReport(List<ModeSummary> rows, String settings) {
    this.rows = List.copyOf(rows);
    this.settings = settings;
  }

  private List<Object[]> values() {
    ModeSummary base = rows.get(0);
    List<Object[]> values = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      ModeSummary r = rows.get(i);
      double previous = i == 0 ? 0 : ModeSummary.percentChange(r.medianMs(), rows.get(i - 1).medianMs());
      values.add(new Object[] {r.mode(), r.iterations(), r.medianMs(), r.stddevMs(), r.minMs(), r.maxMs(),
          ModeSummary.percentChange(r.medianMs(), base.medianMs()),
          ModeSummary.percentChange(r.minMs(), base.minMs()), ModeSummary.percentChange(r.maxMs(), base.maxMs()),
          previous, r.entriesPerSecond(), r.megabytesPerSecond(), r.clientCpuSeconds(), r.serverCpuSeconds()});
    }
    return values;
  }

  /** The table in the layout of Accumulo's published results. */
  String table() {
    StringBuilder s = new StringBuilder(settings).append('\n');
    s.append(String.format(Locale.ROOT, "%-15s %10s %9s %10s %10s %9s %9s %9s %9s %11s %8s %8s %8s%n", "mode",
        "median ms", "stddev", "min ms", "max ms", "%med", "%min", "%max", "%prev", "entries/s", "MB/s", "cli cpu",
        "srv cpu"));
    for (Object[] v : values()) {
      s.append(String.format(Locale.ROOT,
          "%-15s %10.0f %9.0f %10.0f %10.0f %+9.2f %+9.2f %+9.2f %+9.2f %11.0f %8.1f %8.2f %8.2f%n", v[0], v[2], v[3],
          v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13]));
    }
    return s.toString();
  }

  String csv() {
    StringBuilder s = new StringBuilder(String.join(",", COLUMNS)).append('\n');
    for (Object[] v : values()) {
      List<String> cells = new ArrayList<>();
      for (Object o : v) {
        cells.add(o instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : o.toString());
      }
      s.append(String.join(",", cells)).append('\n');
    }
    return s.toString();
  }

  String json() {
    StringBuilder s = new StringBuilder("{\n  \"settings\": \"").append(settings.replace("\"", "'"))
        .append("\",\n  \"modes\": [\n");
    List<Object[]> values = values();
    for (int i = 0; i < values.size(); i++) {
      Object[] v = values.get(i);
      s.append("    {");
      for (int c = 0; c < COLUMNS.length; c++) {
        s.append(c == 0 ? "" : ", ").append('"').append(COLUMNS[c]).append("\": ");
        s.append(v[c] instanceof String str ? "\"" + str + "\"" : v[c] instanceof Double d
            ? String.format(Locale.ROOT, "%.3f", d) : v[c].toString());
      }
      s.append(i + 1 < values.size() ? "},\n" : "}\n");
    }
    return s.append("  ]\n}\n").toString();
  }

  /** A self-contained page: median time per level as bars, min-max as whiskers, the table below. */
  String html() {
    int width = 760;
    int barArea = 560;
    int rowHeight = 34;
    int height = 40 + rows.size() * rowHeight;
    double scale = barArea / rows.stream().mapToDouble(ModeSummary::maxMs).max().orElse(1);
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
            + " font-size=\"12\">%n", width, height));
    for (int i = 0; i < rows.size(); i++) {
      ModeSummary r = rows.get(i);
      int y = 20 + i * rowHeight;
      double x0 = 140;
      svg.append(String.format(Locale.ROOT, "<text x=\"130\" y=\"%d\" text-anchor=\"end\">%s</text>%n", y + 16,
          r.mode()));
      svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"22\" fill=\"%s\"/>%n",
          x0, y, r.medianMs() * scale, i == 0 ? "#7a7a7a" : "#3b6ea8"));
      svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"black\""
          + " stroke-width=\"2\"/>%n", x0 + r.minMs() * scale, x0 + r.maxMs() * scale, y + 11, y + 11));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%.0f ms</text>%n",
          x0 + r.maxMs() * scale + 6, y + 16, r.medianMs()));
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"140\" y=\"%d\" fill=\"#555\">median elapsed time per level;"
        + " black bar: min to max</text>%n", height - 4)).append("</svg>\n");
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>securethrift continuous ingest</title></head>"
        + "<body>\n<h1>Continuous ingest: cost of each security level</h1>\n<p>" + escape(settings) + "</p>\n" + svg
        + "<pre>" + escape(table()) + "</pre>\n</body></html>\n";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Writes ingest-results.csv, .json and .html into {@code dir} and returns the paths written. */
  List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = List.of(dir.resolve("ingest-results.csv"), dir.resolve("ingest-results.json"),
        dir.resolve("ingest-results.html"));
    Files.writeString(written.get(0), csv(), StandardCharsets.UTF_8);
    Files.writeString(written.get(1), json(), StandardCharsets.UTF_8);
    Files.writeString(written.get(2), html(), StandardCharsets.UTF_8);
    return written;
  }
}
