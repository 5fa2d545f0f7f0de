package io.securethrift.core.internal;

import java.time.Duration;

/** Writes durations the way the configuration reads them, for configuration and transport messages alike. */
public final class Durations {
  private Durations() {}

  /** {@code 500ms}, or whole seconds such as {@code 30s}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0) {
      return ms + "ms";
    }
    return (ms / 1000) + "s";
  }
}
