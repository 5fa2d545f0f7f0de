package io.securethrift.core;

/**
 * A configuration value was rejected. The message always names the setting (its property key), what was wrong and
 * what is accepted, so an operator can fix the file without reading code. Never carries a secret value.
 */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String key;

  public ConfigException(String key, String problem) {
    super(key + ": " + problem);
    this.key = key;
  }

  /** The property key of the rejected setting. */
  public String key() {
    return key;
  }
}
