package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The charts' geometry, read back from the SVG parsed as XML: that each mark stands for its value. What a browser
 * draws from it is {@link OverheadChartBrowserTest}'s part.
 */
class OverheadChartTest {
  @Test
  void errorBarsSpanTheIntervalsAroundTheirEstimatesAndReferencesAreMarked() throws Exception {
    List<OverheadChart.Point> points = List.of(
        new OverheadChart.Point("tls-jsse", new Interval(12.3, 9.8, 14.9), 5.92),
        new OverheadChart.Point("sasl-auth <&>", new Interval(-2, -5, 1), 13.16),
        new OverheadChart.Point("sasl-over-tls", Interval.unbounded(8), Double.NaN));
    Document svg = parse(OverheadChart.overheads("overhead", points, "Accumulo 1.7"));

    NodeList bars = svg.getElementsByTagName("line");
    List<Element> errorBars = byClass(bars, "error-bar");
    assertEquals(2, errorBars.size(), "no bar for an interval without bounds");
    List<Element> estimates = byClass(svg.getElementsByTagName("circle"), "estimate");
    assertEquals(3, estimates.size());
    for (int i = 0; i < errorBars.size(); i++) {
      Element bar = errorBars.get(i);
      double x1 = number(bar, "x1");
      double x2 = number(bar, "x2");
      double cx = number(estimates.get(i), "cx");
      assertTrue(x1 < cx && cx < x2, "estimate inside its bar: " + x1 + " " + cx + " " + x2);
      assertEquals(points.get(i).interval().low(), number(bar, "data-low"), 1e-9);
      assertEquals(points.get(i).interval().high(), number(bar, "data-high"), 1e-9);
    }
    // One axis for all rows: bar widths are proportional to the intervals (5.1 and 6 points), zero where it belongs.
    double perPoint = (number(errorBars.get(0), "x2") - number(errorBars.get(0), "x1")) / 5.1;
    // Coordinates are written to 0.1 pixel.
    assertEquals(perPoint * 6, number(errorBars.get(1), "x2") - number(errorBars.get(1), "x1"), 0.3);
    List<Element> references = byClass(svg.getElementsByTagName("path"), "reference");
    assertEquals(2, references.size());
    assertEquals(5.92, number(references.get(0), "data-value"), 1e-9);
    double zero = number(byClass(bars, "zero").get(0), "x1");
    assertEquals(number(errorBars.get(0), "x1") - 9.8 * perPoint, zero, 0.3);
    String text = svg.getDocumentElement().getTextContent();
    assertTrue(text.contains("sasl-auth <&>") && text.contains("+12.3 % [+9.8, +14.9]"), text);
  }

  @Test
  void costBarsAreProportionalToTheirValues() throws Exception {
    Document svg = parse(OverheadChart.bars("cpu", "us per entry", List.of("client", "server"), List.of(
        new OverheadChart.Bars("none", new double[] {1.0, 2.0}),
        new OverheadChart.Bars("tls", new double[] {1.5, Double.NaN}))));
    List<Element> rects = byClass(svg.getElementsByTagName("rect"), "cost-bar");
    assertEquals(3, rects.size(), "an unknown value draws no bar");
    double unit = number(rects.get(0), "width");
    assertEquals(2 * unit, number(rects.get(1), "width"), 0.2);
    assertEquals(1.5 * unit, number(rects.get(2), "width"), 0.2);
    assertEquals("server", rects.get(1).getAttribute("data-series"));
    assertFalse(OverheadChart.bars("x", "u", List.of("a"), List.of()).contains("<script"));
  }

  private static Document parse(String svg) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<Element> byClass(NodeList nodes, String cls) {
    List<Element> found = new java.util.ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      if (cls.equals(e.getAttribute("class"))) {
        found.add(e);
      }
    }
    return found;
  }

  private static double number(Element e, String attribute) {
    return Double.parseDouble(e.getAttribute(attribute));
  }
}
