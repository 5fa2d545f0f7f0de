package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The charts as a person sees them: each is rendered by a real headless Chromium into a PNG, and the pixels are read
 * where the SVG says it drew something: every estimate's dot in its colour, the error bar dark along its interval and
 * not beyond it, every reference mark red, every cost bar in its series' colour, and a title in the corner.
 * {@link OverheadChartTest} checks that those coordinates stand for the right values; this checks that a browser
 * draws them there.
 */
class OverheadChartBrowserTest {
  /** The system property bin/run-tests sets from scripts/browser. */
  private static final String BROWSER = "securethrift.browser";
  private static final int ESTIMATE = 0x3b6ea8;
  private static final int REFERENCE = 0xc0392b;
  private static final int[] SERIES = {0x3b6ea8, 0xd08a2c};

  @TempDir
  Path dir;

  @Test
  void estimatesErrorBarsAndReferenceMarksAreDrawnWhereTheSvgSays() throws Exception {
    // Estimates, interval ends and references far enough apart that no mark hides another.
    List<OverheadChart.Point> points = List.of(
        new OverheadChart.Point("tls-jsse", new Interval(30, 20, 40), 5.92),
        new OverheadChart.Point("sasl-auth", new Interval(10, 4, 16), 40),
        new OverheadChart.Point("sasl-auth-conf", new Interval(60, 50, 70), 21.08),
        new OverheadChart.Point("sasl-over-tls", new Interval(45, 35, 55), Double.NaN));
    String svg = OverheadChart.overheads("Wall-time overhead vs none", points, "Accumulo 1.7 published");
    BufferedImage png = render(svg);
    assertTitleAndNotBlank(png);

    List<double[]> dots = numbers(svg, "<circle class=\"estimate\"[^>]* cx=\"([-\\d.]+)\" cy=\"([-\\d.]+)\"");
    List<double[]> bars = numbers(svg,
        "<line class=\"error-bar\"[^>]* x1=\"([-\\d.]+)\" x2=\"([-\\d.]+)\" y1=\"([-\\d.]+)\"");
    List<double[]> references = numbers(svg, "<path class=\"reference\"[^>]* d=\"M ([-\\d.]+) ([-\\d.]+)");
    assertEquals(points.size(), dots.size(), svg);
    assertEquals(points.size(), bars.size(), svg);
    assertEquals(3, references.size(), svg);
    for (int i = 0; i < points.size(); i++) {
      String what = points.get(i).label();
      int cx = (int) Math.round(dots.get(i)[0]);
      int y = (int) Math.round(dots.get(i)[1]);
      assertColour(png, cx, y, ESTIMATE, what + " estimate");
      double x1 = bars.get(i)[0];
      double x2 = bars.get(i)[1];
      // Along the bar, away from its dot: dark. (The stroke is 2 px wide, centred on y.)
      for (double x = x1 + 2; x <= x2 - 2; x += 1) {
        if (Math.abs(x - cx) > 6) {
          assertTrue(dark(png.getRGB((int) Math.round(x), y - 1)), what + " error bar at x=" + x + ": "
              + hex(png.getRGB((int) Math.round(x), y - 1)));
        }
      }
      // Beyond either end (past the 5 px end ticks): no bar.
      assertTrue(!dark(png.getRGB((int) Math.round(x1) - 8, y - 1)), what + " nothing left of the interval");
      assertTrue(!dark(png.getRGB((int) Math.round(x2) + 8, y - 1)), what + " nothing right of the interval");
    }
    for (double[] reference : references) {
      // The diamond's path starts at its top; its centre is 6 px below.
      assertColour(png, (int) Math.round(reference[0]), (int) Math.round(reference[1]) + 6, REFERENCE,
          "reference mark at " + reference[0]);
    }
  }

  @Test
  void costBarsShowEachSeriesInItsColour() throws Exception {
    List<OverheadChart.Bars> rows = List.of(
        new OverheadChart.Bars("none", new double[] {1.0, 2.0}),
        new OverheadChart.Bars("tls-jsse", new double[] {1.6, 1.8}),
        new OverheadChart.Bars("sasl-auth-conf", new double[] {2.0, 2.2}));
    String svg = OverheadChart.bars("CPU per entry", "CPU microseconds per entry", List.of("client", "server"), rows);
    BufferedImage png = render(svg);
    assertTitleAndNotBlank(png);
    List<double[]> rects = numbers(svg, "<rect class=\"cost-bar\"[^>]* x=\"([-\\d.]+)\" y=\"([-\\d.]+)\""
        + " width=\"([-\\d.]+)\" height=\"([-\\d.]+)\"");
    assertEquals(2 * rows.size(), rects.size(), svg);
    for (int i = 0; i < rects.size(); i++) {
      double[] r = rects.get(i);
      String what = rows.get(i / 2).label() + " " + (i % 2 == 0 ? "client" : "server");
      int midY = (int) Math.round(r[1] + r[3] / 2);
      for (double x = r[0] + 2; x <= r[0] + r[2] - 2; x += r[2] / 8) {
        assertColour(png, (int) Math.round(x), midY, SERIES[i % 2], what + " bar at x=" + x);
      }
      // The bar ends where its value does: past it, the background (or the value's text, which starts 4 px on).
      assertTrue(!near(png.getRGB((int) Math.round(r[0] + r[2]) + 2, midY), SERIES[i % 2]), what + " bar too long");
    }
  }

  /** The page a person would open: the SVG alone in the top-left corner, so its coordinates are the PNG's pixels. */
  private BufferedImage render(String svg) throws IOException, InterruptedException {
    String browser = System.getProperty(BROWSER, "");
    if (browser.isBlank()) {
      fail("no browser to look at the chart with: the system property " + BROWSER + " names a Chromium executable."
          + " bin/run-tests sets it from scripts/browser, which installs Debian's chromium with apt-get when run as"
          + " root; by hand: ./mvnw -pl harness test -D" + BROWSER + "=$(scripts/browser)");
    }
    Matcher size = Pattern.compile("<svg [^>]*width=\"(\\d+)\" height=\"(\\d+)\"").matcher(svg);
    assertTrue(size.find(), svg);
    Path page = Files.writeString(dir.resolve("chart.html"), "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        + "<style>html, body {margin: 0; background: #fff}</style></head><body>" + svg + "</body></html>",
        StandardCharsets.UTF_8);
    Path png = dir.resolve("chart.png");
    List<String> command = new ArrayList<>(List.of(browser, "--headless", "--disable-gpu", "--hide-scrollbars",
        "--force-device-scale-factor=1", "--no-first-run", "--user-data-dir=" + dir.resolve("profile"),
        "--window-size=" + size.group(1) + "," + size.group(2), "--screenshot=" + png));
    if ("root".equals(System.getProperty("user.name"))) {
      command.add("--no-sandbox"); // Chromium refuses to run as root with its sandbox.
    }
    command.add(page.toUri().toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("browser.log").toFile()).start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      fail(browser + " did not finish its screenshot within 2 minutes: " + log());
    }
    assertEquals(0, p.exitValue(), browser + " failed: " + log());
    assertTrue(Files.size(png) > 0, "no screenshot written: " + log());
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(Integer.parseInt(size.group(1)), image.getWidth(), "screenshot as wide as the chart");
    return image;
  }

  private String log() throws IOException {
    return Files.readString(dir.resolve("browser.log"), StandardCharsets.UTF_8);
  }

  /** A title's dark text in the top-left corner, and far more than a few pixels drawn: not a blank page. */
  private static void assertTitleAndNotBlank(BufferedImage png) {
    int title = 0;
    for (int x = 10; x < 150; x++) {
      for (int y = 5; y < 22; y++) {
        title += dark(png.getRGB(x, y)) ? 1 : 0;
      }
    }
    assertTrue(title > 50, "the title's text in the corner: " + title + " dark pixels");
    int drawn = 0;
    for (int x = 0; x < png.getWidth(); x++) {
      for (int y = 0; y < png.getHeight(); y++) {
        drawn += (png.getRGB(x, y) & 0xffffff) != 0xffffff ? 1 : 0;
      }
    }
    assertTrue(drawn > 2000, "only " + drawn + " pixels are not white");
  }

  private static List<double[]> numbers(String svg, String regex) {
    List<double[]> found = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(svg);
    while (m.find()) {
      double[] v = new double[m.groupCount()];
      for (int g = 0; g < v.length; g++) {
        v[g] = Double.parseDouble(m.group(g + 1));
      }
      found.add(v);
    }
    return found;
  }

  private static void assertColour(BufferedImage png, int x, int y, int rgb, String what) {
    assertTrue(near(png.getRGB(x, y), rgb), what + ": pixel (" + x + ", " + y + ") is " + hex(png.getRGB(x, y))
        + ", expected about " + hex(rgb));
  }

  /** Within a few steps per channel: antialiasing and colour management move colours a little. */
  private static boolean near(int actual, int expected) {
    for (int shift = 0; shift <= 16; shift += 8) {
      if (Math.abs((actual >> shift & 0xff) - (expected >> shift & 0xff)) > 24) {
        return false;
      }
    }
    return true;
  }

  private static boolean dark(int rgb) {
    return (rgb >> 16 & 0xff) < 100 && (rgb >> 8 & 0xff) < 100 && (rgb & 0xff) < 100;
  }

  private static String hex(int rgb) {
    return String.format("#%06x", rgb & 0xffffff);
  }
}
