package io.securethrift.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A benchmark run's scratch directory (key stores, keytabs, logs, child JVMs' files), created empty and deleted with
 * everything in it when the run is closed.
 */
public final class WorkDirectory implements AutoCloseable {
  private final Path path;

  private WorkDirectory(Path path) {
    this.path = path;
  }

  /** A new empty directory in the system's temporary directory, its name starting with {@code prefix}. */
  public static WorkDirectory create(String prefix) throws IOException {
    return new WorkDirectory(Files.createTempDirectory(prefix));
  }

  public Path path() {
    return path;
  }

  /** {@code path().resolve(name)}. */
  public Path resolve(String name) {
    return path.resolve(name);
  }

  /** Deletes the directory and everything below it; one that is already gone is fine. */
  @Override
  public void close() {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      List<Path> deepestFirst = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
      for (Path p : deepestFirst) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the work directory " + path, e);
    }
  }
}
