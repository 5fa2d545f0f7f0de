package io.securethrift.core;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** Where key or trust material lives: a file, its format and its password. */
public final class StoreLocation {
  private final Path path;
  private final StoreType type;
  private final Secret password;
  private final String alias;

  StoreLocation(Path path, StoreType type, Secret password, String alias) {
    this.path = Objects.requireNonNull(path, "path");
    this.type = Objects.requireNonNull(type, "type");
    this.password = password;
    this.alias = alias;
  }

  public Path path() {
    return path;
  }

  /** The configured type, or the one guessed from the file name when none was configured. */
  public StoreType type() {
    return type;
  }

  /** The store password (for PEM: the private key's password); empty when none was given. */
  public Optional<Secret> password() {
    return Optional.ofNullable(password);
  }

  /** The key entry to use when a store holds several keys. */
  public Optional<String> alias() {
    return Optional.ofNullable(alias);
  }

  @Override
  public String toString() {
    return type + ":" + path + (alias == null ? "" : "#" + alias);
  }
}
