package io.securethrift.accumulo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Finds a key or trust store the way Accumulo does: as a file, or, for a relative name, as a class-path resource.
 * A resource inside a jar has no path of its own, so it is copied to a temporary file only its owner can read, deleted
 * when the JVM exits.
 */
final class StoreFiles {
  private StoreFiles() {}

  /**
   * The store's file, or empty when neither the file system nor the class path has it (a name no file can have,
   * such as one with a NUL, included).
   */
  static Optional<Path> find(String name, ClassLoader classLoader) {
    Path path;
    try {
      path = Path.of(name);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    if (Files.isRegularFile(path)) {
      return Optional.of(path.toAbsolutePath());
    }
    if (path.isAbsolute()) {
      return Optional.empty();
    }
    URL resource = classLoader.getResource(name.replace('\\', '/'));
    return resource == null ? Optional.empty()
        : Optional.of(copyToPrivateFile(resource, path.getFileName().toString()));
  }

  private static Path copyToPrivateFile(URL resource, String fileName) {
    try {
      Path copy = Files.createTempFile("securethrift-store-", "-" + fileName,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      copy.toFile().deleteOnExit();
      // Write into the file just created: replacing it would drop its owner-only permissions.
      try (InputStream in = resource.openStream(); OutputStream out = Files.newOutputStream(copy)) {
        in.transferTo(out);
      }
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy class-path resource " + resource + " to a temporary file", e);
    }
  }
}
