package io.securethrift.bench;

import io.securethrift.core.ConfigException;

/**
 * The checks of the options every turn-taking benchmark command has ({@code --seconds} of a round, the {@code --turns}
 * it is cut into, {@code --warm-up} seconds), each naming the option it refuses.
 */
public final class TurnOptions {
  private TurnOptions() {}

  /** @throws ConfigException naming the first option whose value cannot be used */
  public static void check(double seconds, int turns, double warmUp) {
    if (!(seconds > 0) || Double.isInfinite(seconds)) {
      throw new ConfigException("--seconds", seconds + " is not a positive number of seconds");
    }
    if (turns < 1) {
      throw new ConfigException("--turns", turns + " is not a number of turns (1 or more)");
    }
    if (!(warmUp >= 0) || Double.isInfinite(warmUp)) {
      throw new ConfigException("--warm-up", warmUp + " is not a number of seconds (0 or more)");
    }
  }
}
