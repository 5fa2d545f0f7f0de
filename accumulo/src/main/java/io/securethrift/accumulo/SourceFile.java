package io.securethrift.accumulo;

import io.securethrift.core.ConfigException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The key/value pairs of one configuration file, in file order, and the one way to report a problem in it: a
 * {@link ConfigException} whose message names the key, the problem and the file.
 */
final class SourceFile {
  private final Path path;
  private final Map<String, String> entries;

  SourceFile(Path path, Map<String, String> entries) {
    this.path = path;
    this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  Path path() {
    return path;
  }

  /** Every key and value, in the order the file lists them. */
  Map<String, String> entries() {
    return entries;
  }

  /** The value as written, trimmed; empty when the key is absent. */
  Optional<String> get(String key) {
    return Optional.ofNullable(entries.get(key)).map(String::trim);
  }

  /** A rejection of {@code key}'s value, naming this file. */
  ConfigException error(String key, String problem) {
    return ConfigException.inFile(path, key, problem);
  }

  /** Re-reports a rejection raised by securethrift's own validation under {@code key}, naming this file. */
  ConfigException rekey(String key, ConfigException cause) {
    return ConfigException.escaped(key, cause.problem(), path.toString());
  }
}
