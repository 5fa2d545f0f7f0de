package io.securethrift.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A horizontal bar chart as a self-contained SVG element, for benchmark reports that must open in any browser with no
 * script or network: one labelled bar per value, coloured by series (for example the server a figure belongs to),
 * with a legend of the series.
 */
public final class SvgBarChart {
  private static final String[] COLOURS = {"#3b6ea8", "#d07a2a", "#7a7a7a", "#4c9a52", "#a84c6e"};
  private static final int LABEL_WIDTH = 300;
  private static final int BAR_AREA = 420;
  private static final int ROW = 18;

  private final String title;
  private final String unit;
  private final List<String> series = new ArrayList<>();
  private final List<Object[]> bars = new ArrayList<>();

  public SvgBarChart(String title, String unit) {
    this.title = title;
    this.unit = unit;
  }

  /** Adds a bar; a value that is not a finite number is drawn as "n/a" with no bar. */
  public SvgBarChart bar(String label, String seriesName, double value) {
    if (!series.contains(seriesName)) {
      series.add(seriesName);
    }
    bars.add(new Object[] {label, seriesName, value});
    return this;
  }

  public String svg() {
    double max = bars.stream().mapToDouble(b -> (double) b[2]).filter(Double::isFinite).max().orElse(1);
    double scale = max > 0 ? BAR_AREA / max : 0;
    int height = 44 + bars.size() * ROW + 20;
    StringBuilder s = new StringBuilder(format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " font-family=\"sans-serif\" font-size=\"11\">%n", LABEL_WIDTH + BAR_AREA + 90, height));
    s.append(format("<text x=\"4\" y=\"14\" font-size=\"13\" font-weight=\"bold\">%s (%s)</text>%n",
        OverheadChart.escape(title), OverheadChart.escape(unit)));
    int x = 4;
    for (int i = 0; i < series.size(); i++) {
      s.append(format("<rect x=\"%d\" y=\"22\" width=\"10\" height=\"10\" fill=\"%s\"/>"
          + "<text x=\"%d\" y=\"31\">%s</text>%n", x, colour(i), x + 14, OverheadChart.escape(series.get(i))));
      x += 24 + 7 * series.get(i).length();
    }
    for (int i = 0; i < bars.size(); i++) {
      Object[] bar = bars.get(i);
      double value = (double) bar[2];
      int y = 44 + i * ROW;
      s.append(format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LABEL_WIDTH - 6, y + 12,
          OverheadChart.escape((String) bar[0])));
      if (Double.isFinite(value)) {
        s.append(format("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", LABEL_WIDTH, y,
            Math.max(0.5, value * scale), ROW - 4, colour(series.indexOf((String) bar[1]))));
      }
      s.append(format("<text x=\"%.1f\" y=\"%d\">%s</text>%n", LABEL_WIDTH + (Double.isFinite(value)
          ? value * scale : 0) + 4, y + 12, Double.isFinite(value) ? number(value) : "n/a"));
    }
    return s.append("</svg>\n").toString();
  }

  private static String colour(int i) {
    return COLOURS[i % COLOURS.length];
  }

  private static String number(double v) {
    return Math.abs(v) >= 100 ? format("%.0f", v) : format("%.2f", v);
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
