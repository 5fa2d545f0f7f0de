package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The result files' JSON: what is written reads back as the same values (numbers as doubles, objects in their order),
 * a number that is not finite is written as null, text of any kind survives, and a damaged document is refused with
 * the offset of the damage.
 */
class JsonTest {
  private static String error(String text) {
    return assertThrows(IllegalArgumentException.class, () -> Json.parse(text)).getMessage();
  }

  @Test
  void aDocumentReadsBackWithItsValuesAndOrder() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("z", 1);
    inner.put("a", 2.5);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("tool", "ingest-bench");
    root.put("count", 42);
    root.put("big", 123_456_789_012L);
    root.put("ratio", 0.1);
    root.put("yes", true);
    root.put("no", false);
    root.put("nothing", null);
    root.put("list", List.of("a", 1, List.of()));
    root.put("rows", List.of(inner, Map.of()));
    root.put("empty", Map.of());

    Object read = Json.parse(Json.write(root));

    Map<String, Object> expectedInner = new LinkedHashMap<>();
    expectedInner.put("z", 1.0);
    expectedInner.put("a", 2.5);
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("tool", "ingest-bench");
    expected.put("count", 42.0);
    expected.put("big", 123_456_789_012.0);
    expected.put("ratio", 0.1);
    expected.put("yes", true);
    expected.put("no", false);
    expected.put("nothing", null);
    expected.put("list", List.of("a", 1.0, List.of()));
    expected.put("rows", List.of(expectedInner, Map.of()));
    expected.put("empty", Map.of());
    assertEquals(expected, read);
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(((Map<?, ?>) read).keySet()), "in the written order");
  }

  @Test
  void wholeNumbersAreWrittenWithoutAFractionAndOthersExactly() {
    assertEquals("3\n", Json.write(3.0));
    assertEquals("-17\n", Json.write(-17.0));
    assertEquals("0.1\n", Json.write(0.1));
    assertEquals("1.0E15\n", Json.write(1e15), "from 10^15 on in exponent form");
    assertEquals(1e15, Json.parse(Json.write(1e15)));
    assertEquals("[1, 2.5, -0.125]\n", Json.write(new double[] {1, 2.5, -0.125}));
    double awkward = 1.0 / 3;
    assertEquals(awkward, Json.parse(Json.write(awkward)), "a double survives to the last bit");
  }

  @Test
  void aNumberThatIsNotFiniteIsWrittenAsNull() {
    assertEquals("null\n", Json.write(Double.NaN));
    assertEquals("[null, null, 1]\n", Json.write(new double[] {Double.POSITIVE_INFINITY, Double.NaN, 1}));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("low", Double.NaN);
    assertNull(((Map<?, ?>) Json.parse(Json.write(m))).get("low"));
    assertTrue(((Map<?, ?>) Json.parse(Json.write(m))).containsKey("low"), "the key stays, as null");
  }

  @Test
  void anyTextSurvivesQuotesBackslashesLineBreaksAndControlCharacters() {
    String text = "a \"quoted\" \\path\\ on\ntwo lines\r\twith \u0001 and \u001f, µ and → and 😀";
    String written = Json.write(text);
    assertEquals(1, written.lines().count(), "one line: " + written);
    assertTrue(written.contains("\\u0001") && written.contains("\\u001f"), written);
    assertEquals(text, Json.parse(written));
    assertEquals("\b\f/", Json.parse("\"\\b\\f\\/\""));
    assertEquals("é", Json.parse("\"\\u00e9\""));
    assertEquals("é", Json.parse("\"\\u00E9\""));
  }

  @Test
  void objectsInsideArraysStayOnOneLine() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("mode", "none");
    row.put("round", 1);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("rows", List.of(row));
    assertEquals("{\n  \"rows\": [\n    {\"mode\": \"none\", \"round\": 1}\n  ]\n}\n", Json.write(root));
  }

  @Test
  void whitespaceAroundTokensIsAllowed() {
    assertEquals(Map.of("a", List.of(1.0, 2.0)), Json.parse(" \n{ \"a\" :\t[ 1 , 2 ] }\r\n "));
  }

  @Test
  void damageIsRefusedWithItsOffset() {
    assertEquals("JSON: end of text where a value was expected at offset 0", error(""));
    assertEquals("JSON: text after the value at offset 3", error("{} x"));
    assertEquals("JSON: expected '}' at offset 8", error("{\"a\": 1 \"b\": 2}"));
    assertEquals("JSON: expected ':' at offset 5", error("{\"a\" 1}"));
    assertEquals("JSON: expected ']' at offset 3", error("[1 2]"));
    assertEquals("JSON: unterminated string at offset 4", error("\"abc"));
    assertEquals("JSON: unterminated string at offset 2", error("\"\\"));
    assertEquals("JSON: \\u not followed by four hex digits at offset 3", error("\"\\u12\""));
    assertEquals("JSON: \\u not followed by four hex digits at offset 3", error("\"\\u00zz\""));
    assertEquals("JSON: not a value at offset 0", error("tru"));
    assertEquals("JSON: not a value at offset 3", error("1e+"));
    assertEquals("JSON: not a value at offset 0", error("@"));
    assertEquals("JSON: expected '\"' at offset 1", error("{1: 2}"));
  }

  @Test
  void nestingBeyondWhatAResultFileNeedsIsRefusedBeforeTheStackRunsOut() {
    assertEquals(List.of(List.of(List.of())), Json.parse("[[[]]]"));
    String deep = "[".repeat(64) + "]".repeat(64);
    assertEquals(64, depth(Json.parse(deep)));
    assertEquals("JSON: objects and arrays nested deeper than 64 at offset 64",
        error("[".repeat(65) + "]".repeat(65)));
    assertTrue(error("[".repeat(100_000)).startsWith("JSON: objects and arrays nested deeper than 64"));
    // Depth counts nesting, not how many containers there are.
    List<Object> wide = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      wide.add(List.of(Map.of()));
    }
    assertEquals(wide, Json.parse(Json.write(wide)));
  }

  private static int depth(Object o) {
    return o instanceof List<?> l ? 1 + (l.isEmpty() ? 0 : depth(l.get(0))) : 0;
  }

  @Test
  void whatCannotBeWrittenIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    assertEquals("cannot write java.lang.Object as JSON", e.getMessage());
  }
}
