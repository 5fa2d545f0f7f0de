package io.securethrift.core;

/**
 * A configuration value was rejected. The message always names the setting (its property key), what was wrong and
 * what is accepted, so an operator can fix the file without reading code. Never carries a secret value. Values are
 * quoted as {@link PeerText} writes them, so a control character in a file cannot break or forge the log line that
 * reports it.
 */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String key;
  private final String problem;

  public ConfigException(String key, String problem) {
    this(key, PeerText.sanitize(key), PeerText.sanitize(problem));
  }

  private ConfigException(String key, String printableKey, String problem) {
    super(printableKey + ": " + problem);
    this.key = key;
    this.problem = problem;
  }

  /** The property key of the rejected setting. */
  public String key() {
    return key;
  }

  /** The message without its leading key, to report the same problem under another key or with more context. */
  public String problem() {
    return problem;
  }
}
