package io.securethrift.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The little JSON the result files need, written and read here: objects (ordered maps), arrays (lists or double
 * arrays), strings, numbers, booleans and null. Numbers read back as {@link Double}; a NaN or infinite number is
 * written as null.
 */
public final class Json {
  private Json() {}

  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, "");
    return out.append('\n').toString();
  }

  private static void write(Object value, StringBuilder out, String indent) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      string(s, out);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      out.append(Double.isFinite(d) ? number(d) : "null");
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof double[] array) {
      out.append('[');
      for (int i = 0; i < array.length; i++) {
        out.append(i == 0 ? "" : ", ");
        write(array[i], out, indent);
      }
      out.append(']');
    } else if (value instanceof List<?> list) {
      String inner = indent + "  ";
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        out.append(i == 0 ? "\n" : ",\n").append(inner);
        write(list.get(i), out, inner);
      }
      out.append(list.isEmpty() ? "]" : "\n" + indent + "]");
    } else if (value instanceof Map<?, ?> map) {
      // Objects inside arrays stay on one line (one raw row, one overhead), the top levels are indented.
      boolean flat = indent.length() >= 4;
      String inner = indent + "  ";
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.append(first ? "" : ",").append(flat ? (first ? "" : " ") : "\n" + inner);
        string(String.valueOf(e.getKey()), out);
        out.append(": ");
        write(e.getValue(), out, flat ? indent : inner);
        first = false;
      }
      out.append(flat || map.isEmpty() ? "}" : "\n" + indent + "}");
    } else {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
    }
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** Parses a JSON text; a syntax error names its offset. */
  public static Object parse(String text) {
    Parser p = new Parser(text);
    Object value = p.value();
    p.space();
    if (p.pos != text.length()) {
      throw p.error("text after the value");
    }
    return value;
  }

  private static final class Parser {
    /** Result files nest four deep; a deeper text would only exhaust the stack of this recursive reader. */
    private static final int MAX_DEPTH = 64;
    private final String s;
    private int pos;
    private int depth;

    Parser(String s) {
      this.s = s;
    }

    Object value() {
      space();
      if (pos >= s.length()) {
        throw error("end of text where a value was expected");
      }
      char c = s.charAt(pos);
      if ((c == '{' || c == '[') && ++depth > MAX_DEPTH) {
        throw error("objects and arrays nested deeper than " + MAX_DEPTH);
      }
      return switch (c) {
        case '{' -> object();
        case '[' -> array();
        case '"' -> string();
        case 't' -> literal("true", Boolean.TRUE);
        case 'f' -> literal("false", Boolean.FALSE);
        case 'n' -> literal("null", null);
        default -> number();
      };
    }

    private Map<String, Object> object() {
      Map<String, Object> map = new LinkedHashMap<>();
      pos++;
      space();
      if (peek('}')) {
        depth--;
        return map;
      }
      do {
        space();
        String key = string();
        space();
        expect(':');
        map.put(key, value());
        space();
      } while (peek(','));
      expect('}');
      depth--;
      return map;
    }

    private List<Object> array() {
      List<Object> list = new ArrayList<>();
      pos++;
      space();
      if (peek(']')) {
        depth--;
        return list;
      }
      do {
        list.add(value());
        space();
      } while (peek(','));
      expect(']');
      depth--;
      return list;
    }

    private String string() {
      expect('"');
      StringBuilder out = new StringBuilder();
      while (true) {
        if (pos >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(pos++);
        if (c == '"') {
          return out.toString();
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (pos >= s.length()) {
          throw error("unterminated string");
        }
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> {
            if (pos + 4 > s.length() || !s.substring(pos, pos + 4).chars().allMatch(h -> Character.digit(h, 16) >= 0)) {
              throw error("\\u not followed by four hex digits");
            }
            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          default -> out.append(e);
        }
      }
    }

    private Double number() {
      int start = pos;
      while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
        pos++;
      }
      try {
        return Double.valueOf(s.substring(start, pos));
      } catch (NumberFormatException e) {
        throw error("not a value");
      }
    }

    private Object literal(String word, Object value) {
      if (!s.startsWith(word, pos)) {
        throw error("not a value");
      }
      pos += word.length();
      return value;
    }

    private boolean peek(char c) {
      if (pos < s.length() && s.charAt(pos) == c) {
        pos++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw error("expected '" + c + "'");
      }
    }

    void space() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
    }
  }
}
