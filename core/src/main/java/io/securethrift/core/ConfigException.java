package io.securethrift.core;

import io.securethrift.core.identity.PeerText;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A configuration value was rejected. The message always names the setting (its property key), what was wrong and
 * what is accepted, so an operator can fix the file without reading code; {@link #key()}, {@link #problem()} and
 * {@link #source()} give the same parts to code that reports them differently. Never carries a secret value. The
 * message is escaped by {@link PeerText} once, when the exception is made, so a control character in a file cannot
 * break or forge the log line that reports it; {@link PeerText#describe} quotes it as it is.
 */
public final class ConfigException extends IllegalArgumentException {
  /** {@link #source()} of a value given to a {@link SecurityConfig.Builder} setter. */
  public static final String BUILDER = "builder";
  /** {@link #source()} of a value read by {@link SecurityConfig#fromProperties}. */
  public static final String PROPERTIES = "properties";

  private static final long serialVersionUID = 1L;
  private final String key;
  private final String problem;
  private final String source;

  /** A rejection of a value set in code ({@link #BUILDER}). */
  public ConfigException(String key, String problem) {
    this(key, problem, BUILDER);
  }

  /**
   * A rejection of a value that came from {@code source}: {@link #BUILDER}, {@link #PROPERTIES}, or the file holding
   * it, which the message then names.
   */
  public ConfigException(String key, String problem, String source) {
    this(key, PeerText.sanitize(Objects.requireNonNull(problem, "problem")), source, true);
  }

  private ConfigException(String key, String escapedProblem, String source, boolean escaped) {
    super(PeerText.sanitize(key) + ": " + escapedProblem
        + (isFile(source) ? " (in " + PeerText.sanitize(source) + ")" : ""));
    this.key = Objects.requireNonNull(key, "key");
    this.problem = Objects.requireNonNull(escapedProblem, "problem");
    this.source = Objects.requireNonNull(source, "source");
  }

  /** A rejection of {@code key}'s value in {@code file}. */
  public static ConfigException inFile(Path file, String key, String problem) {
    return new ConfigException(key, problem, file.toString());
  }

  /**
   * A rejection whose problem is escaped already, and kept as it is: another rejection's {@link #problem()}, or text
   * that quotes an exception through {@link PeerText#describe} or {@link PeerText#messageOf}. The constructors would
   * escape it a second time, doubling its backslashes.
   *
   * @param source {@link #BUILDER}, {@link #PROPERTIES}, or the file holding the value
   */
  public static ConfigException escaped(String key, String escapedProblem, String source) {
    return new ConfigException(key, escapedProblem, source, true);
  }

  private static boolean isFile(String source) {
    return !source.equals(BUILDER) && !source.equals(PROPERTIES);
  }

  /** The property key of the rejected setting, as written where it came from. */
  public String key() {
    return key;
  }

  /** What was wrong and what is accepted, without the key and the source; escaped by {@link PeerText}. */
  public String problem() {
    return problem;
  }

  /** Where the value came from: {@link #BUILDER}, {@link #PROPERTIES}, or the path of the file that held it. */
  public String source() {
    return source;
  }

  /** The same rejection, attributed to {@code otherSource}. */
  ConfigException from(String otherSource) {
    ConfigException moved = escaped(key, problem, otherSource);
    moved.setStackTrace(getStackTrace());
    return moved;
  }
}
