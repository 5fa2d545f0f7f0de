package io.securethrift.core;

import java.util.Arrays;

/**
 * A password or other secret. Its {@link #toString()} never shows the value, so a secret cannot leak into a log line
 * or exception message by accident.
 */
public final class Secret {
  private final char[] value;

  private Secret(char[] value) {
    this.value = value.clone();
  }

  public static Secret of(char[] value) {
    return new Secret(value);
  }

  public static Secret of(String value) {
    return new Secret(value.toCharArray());
  }

  /** A copy of the secret; callers should clear it when done. */
  public char[] chars() {
    return value.clone();
  }

  public boolean isEmpty() {
    return value.length == 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret && Arrays.equals(value, ((Secret) o).value);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "****";
  }
}
