package io.securethrift.core.testing;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One line of the child-JVM protocol ({@link ChildJvm}): a kind and named fields, {@code KIND key=value key=value},
 * values URL-encoded so that any text fits on the line. Commands and answers are both records, so neither side
 * depends on the position of a value; a missing or malformed field names itself and the line.
 */
public final class LineRecord {
  /** The kind of the answer to a command that failed; its {@code message} field says why. */
  public static final String ERROR = "ERROR";

  private final String kind;
  private final Map<String, String> fields;

  private LineRecord(String kind, Map<String, String> fields) {
    if (kind.isEmpty() || kind.contains(" ") || kind.contains("=")) {
      throw new IllegalArgumentException("not a record kind: '" + kind + "'");
    }
    this.kind = kind;
    this.fields = fields;
  }

  public static LineRecord of(String kind) {
    return new LineRecord(kind, new LinkedHashMap<>());
  }

  /** This record with one more field; a list value is stored comma-separated. */
  public LineRecord with(String key, Object value) {
    if (key.isEmpty() || key.contains(" ") || key.contains("=")) {
      throw new IllegalArgumentException("not a field name: '" + key + "'");
    }
    String text = value instanceof List ? String.join(",", ((List<?>) value).stream().map(String::valueOf)
        .map(LineRecord::escapeItem).toArray(String[]::new)) : String.valueOf(value);
    fields.put(key, text);
    return this;
  }

  public String kind() {
    return kind;
  }

  public Map<String, String> fields() {
    return Collections.unmodifiableMap(fields);
  }

  public String get(String key) {
    String value = fields.get(key);
    if (value == null) {
      throw new IllegalArgumentException(kind + " record has no field '" + key + "': " + encode());
    }
    return value;
  }

  public long getLong(String key) {
    try {
      return Long.parseLong(get(key));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(kind + " record's field '" + key + "' is not an integer: " + encode(), e);
    }
  }

  public int getInt(String key) {
    return Math.toIntExact(getLong(key));
  }

  public double getDouble(String key) {
    try {
      return Double.parseDouble(get(key));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(kind + " record's field '" + key + "' is not a number: " + encode(), e);
    }
  }

  /** A field written from a list; empty when the list was. */
  public List<String> getList(String key) {
    String value = get(key);
    if (value.isEmpty()) {
      return List.of();
    }
    return Arrays.stream(value.split(",", -1)).map(LineRecord::unescapeItem)
        .collect(java.util.stream.Collectors.toUnmodifiableList());
  }

  /** The record as one line, without the line end. */
  public String encode() {
    StringBuilder line = new StringBuilder(kind);
    fields.forEach((k, v) -> line.append(' ').append(k).append('=')
        .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return line.toString();
  }

  /** Reads a line {@link #encode()} wrote. */
  public static LineRecord parse(String line) {
    String[] words = line.trim().split(" +");
    LineRecord record = of(words[0]);
    for (int i = 1; i < words.length; i++) {
      int eq = words[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not a key=value field: '" + words[i] + "' in: " + line);
      }
      record.fields.put(words[i].substring(0, eq), URLDecoder.decode(words[i].substring(eq + 1),
          StandardCharsets.UTF_8));
    }
    return record;
  }

  private static String escapeItem(String item) {
    return item.replace("%", "%25").replace(",", "%2C");
  }

  private static String unescapeItem(String item) {
    return item.replace("%2C", ",").replace("%25", "%");
  }

  @Override
  public String toString() {
    return encode();
  }
}
