package io.securethrift.harness;

import java.util.List;
import java.util.Locale;

/**
 * Self-contained SVG charts of a run (no script, no external resource): overheads as points with 95 % error bars,
 * each beside an optional published reference mark, and costs per unit as grouped bars (one bar per side, say client
 * and server). Every drawn element carries a class ({@code estimate}, {@code error-bar}, {@code reference},
 * {@code cost-bar}) and the values it stands for as {@code data-} attributes, so a test can check the drawing.
 */
public final class OverheadChart {
  private static final int LABEL_WIDTH = 250;
  private static final int PLOT_WIDTH = 460;
  private static final int ROW = 26;
  private static final String[] COLORS = {"#3b6ea8", "#d08a2c", "#5a9e5a", "#8c5aa8"};

  private OverheadChart() {}

  /** One overhead to draw; {@code reference} is NaN when there is no published figure for it. */
  public record Point(String label, Interval interval, double reference) {}

  /** One row of bars: a label and one value per series. */
  public record Bars(String label, double[] values) {}

  /** Overheads in percent on a common axis with zero marked; {@code referenceName} explains the reference marks. */
  public static String overheads(String title, List<Point> points, String referenceName) {
    double min = 0;
    double max = 1;
    for (Point p : points) {
      for (double v : new double[] {p.interval().estimate(), p.interval().low(), p.interval().high(), p.reference()}) {
        if (Double.isFinite(v)) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
    }
    double pad = (max - min) * 0.05;
    Axis axis = new Axis(min - pad, max + pad);
    int height = 60 + points.size() * ROW;
    StringBuilder svg = open(title, height);
    double zero = axis.x(0);
    svg.append(String.format(Locale.ROOT, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"30\" y2=\"%d\""
        + " stroke=\"#999\"/>%n", zero, zero, height - 25));
    for (int i = 0; i < points.size(); i++) {
      Point p = points.get(i);
      Interval v = p.interval();
      int y = 42 + i * ROW;
      label(svg, p.label(), y);
      if (v.bounded()) {
        svg.append(String.format(Locale.ROOT, "<line class=\"error-bar\" data-low=\"%.3f\" data-high=\"%.3f\""
            + " x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"black\" stroke-width=\"2\"/>%n",
            v.low(), v.high(), axis.x(v.low()), axis.x(v.high()), y, y));
        for (double end : new double[] {v.low(), v.high()}) {
          svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\""
              + " stroke=\"black\"/>%n", axis.x(end), axis.x(end), y - 5, y + 5));
        }
      }
      if (Double.isFinite(v.estimate())) {
        svg.append(String.format(Locale.ROOT, "<circle class=\"estimate\" data-value=\"%.3f\" cx=\"%.1f\" cy=\"%d\""
            + " r=\"4\" fill=\"%s\"/>%n", v.estimate(), axis.x(v.estimate()), y, COLORS[0]));
      }
      if (Double.isFinite(p.reference())) {
        double x = axis.x(p.reference());
        svg.append(String.format(Locale.ROOT, "<path class=\"reference\" data-value=\"%.3f\" d=\"M %.1f %d l 5 6"
            + " l -5 6 l -5 -6 z\" fill=\"#c0392b\"/>%n", p.reference(), x, y - 6));
      }
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", LABEL_WIDTH + PLOT_WIDTH + 10,
          y + 4, escape(v.format())));
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">dot: estimate; bar: 95 %%"
        + " interval; red diamond: %s; axis %+.0f %% to %+.0f %%</text>%n", LABEL_WIDTH, height - 8,
        escape(referenceName), axis.min, axis.max));
    return svg.append("</svg>\n").toString();
  }

  /** Grouped bars, one per series, on a common axis from zero; {@code unit} names the values. */
  public static String bars(String title, String unit, List<String> series, List<Bars> rows) {
    double max = rows.stream().flatMapToDouble(r -> java.util.Arrays.stream(r.values()))
        .filter(Double::isFinite).max().orElse(1);
    Axis axis = new Axis(0, max <= 0 ? 1 : max * 1.05);
    int barHeight = Math.max(6, (ROW - 6) / Math.max(1, series.size()));
    int rowHeight = barHeight * series.size() + 8;
    int height = 60 + rows.size() * rowHeight;
    StringBuilder svg = open(title, height);
    for (int i = 0; i < rows.size(); i++) {
      Bars r = rows.get(i);
      int y = 34 + i * rowHeight;
      label(svg, r.label(), y + barHeight * series.size() / 2);
      for (int s = 0; s < series.size(); s++) {
        double v = r.values()[s];
        if (!Double.isFinite(v)) {
          continue;
        }
        svg.append(String.format(Locale.ROOT, "<rect class=\"cost-bar\" data-series=\"%s\" data-value=\"%.3f\""
            + " x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", escape(series.get(s)), v,
            LABEL_WIDTH, y + s * barHeight, axis.x(v) - LABEL_WIDTH, barHeight - 1, COLORS[s % COLORS.length]));
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%.1f</text>%n",
            axis.x(v) + 4, y + s * barHeight + barHeight - 2, v));
      }
    }
    StringBuilder legend = new StringBuilder();
    for (int s = 0; s < series.size(); s++) {
      legend.append(s == 0 ? "" : ", ").append(series.get(s)).append(" (").append(COLORS[s % COLORS.length])
          .append(')');
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">%s; bars: %s</text>%n",
        LABEL_WIDTH, height - 8, escape(unit), escape(legend.toString())));
    return svg.append("</svg>\n").toString();
  }

  private static StringBuilder open(String title, int height) {
    return new StringBuilder(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
        + " height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n<text x=\"10\" y=\"18\""
        + " font-weight=\"bold\">%s</text>%n", LABEL_WIDTH + PLOT_WIDTH + 200, height, escape(title)));
  }

  private static void label(StringBuilder svg, String label, int y) {
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
        LABEL_WIDTH - 10, y + 4, escape(label)));
  }

  /** Escapes text for XML content and attributes. */
  public static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** Maps values in [min, max] onto the plot's x range. */
  private record Axis(double min, double max) {
    double x(double value) {
      return LABEL_WIDTH + (value - min) / (max - min) * PLOT_WIDTH;
    }
  }
}
