package io.securethrift.core;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Parses the exact tokens users type for enum-like settings, with one error format for all of them. */
final class Tokens {
  private Tokens() {}

  static <E extends Enum<E>> E parse(String key, String text, E[] values, Function<E, String> token) {
    if (text != null) {
      for (E value : values) {
        if (token.apply(value).equals(text.trim())) {
          return value;
        }
      }
    }
    throw new ConfigException(key, "'" + text + "' is not accepted; accepted values: " + list(values, token));
  }

  static <E> String list(E[] values, Function<E, String> token) {
    return Arrays.stream(values).map(token).collect(Collectors.joining(", "));
  }

  /** Splits a comma-separated list, trimming blanks; empty text gives an empty list. */
  static List<String> splitList(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
  }
}
