package io.securethrift.ingest.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The one naming of benchmark modes across backends: TLS modes are {@code tls-<engine>} ({@code tls-jsse},
 * {@code tls-conscrypt}) in every backend and report. Accumulo's documentation says SSL, so {@code ssl-jsse} and
 * {@code ssl-conscrypt} are accepted on input as aliases and reported under their canonical name.
 */
public final class ModeNames {
  private static final Map<String, String> ALIASES = Map.of("ssl-jsse", "tls-jsse", "ssl-conscrypt", "tls-conscrypt");

  private ModeNames() {}

  /** The canonical name of {@code name}: an alias's target, or the name itself in lower case. */
  public static String canonical(String name) {
    String lower = name.trim().toLowerCase(Locale.ROOT);
    return ALIASES.getOrDefault(lower, lower);
  }

  public static List<String> canonical(List<String> names) {
    return names.stream().map(ModeNames::canonical).collect(Collectors.toList());
  }
}
