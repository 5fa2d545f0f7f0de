package io.securethrift.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Removal of the scratch directories that fixtures (KDC, CA, servers, benchmark runs) create and own. */
public final class Directories {
  private Directories() {}

  /** Deletes {@code dir} and everything below it; a directory that is already gone is fine. */
  public static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
