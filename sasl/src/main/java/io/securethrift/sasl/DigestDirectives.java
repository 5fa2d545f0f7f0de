package io.securethrift.sasl;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads one directive of a DIGEST-MD5 challenge or response (RFC 2831: {@code name=value} or {@code name="value"}
 * with backslash escapes, separated by commas and white space), the way the JDK's mechanism reads them, so a quoted
 * value that contains {@code ,qop=} cannot pass for a directive. Read-only: a message the tokenizer cannot follow
 * gives empty, and the JDK mechanism then rejects it itself.
 */
final class DigestDirectives {
  private DigestDirectives() {}

  /** The value of the first directive called {@code name} (case-insensitive, as RFC 2831 names are). */
  static Optional<String> value(byte[] message, String name) {
    String text = new String(message, StandardCharsets.UTF_8);
    int i = 0;
    while (i < text.length()) {
      i = skip(text, i, true);
      int equals = text.indexOf('=', i);
      if (equals < 0) {
        return Optional.empty();
      }
      String key = text.substring(i, equals).trim();
      i = skip(text, equals + 1, false);
      StringBuilder value = new StringBuilder();
      if (i < text.length() && text.charAt(i) == '"') {
        i++;
        while (i < text.length() && text.charAt(i) != '"') {
          if (text.charAt(i) == '\\') {
            i++;
          }
          if (i < text.length()) {
            value.append(text.charAt(i++));
          }
        }
        if (i >= text.length()) {
          return Optional.empty();
        }
        i++;
      } else {
        while (i < text.length() && text.charAt(i) != ',' && !Character.isWhitespace(text.charAt(i))) {
          value.append(text.charAt(i++));
        }
      }
      if (key.equalsIgnoreCase(name)) {
        return Optional.of(value.toString());
      }
    }
    return Optional.empty();
  }

  /** Skips white space, and commas too when between directives. */
  private static int skip(String text, int from, boolean commas) {
    int i = from;
    while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || commas && text.charAt(i) == ',')) {
      i++;
    }
    return i;
  }
}
