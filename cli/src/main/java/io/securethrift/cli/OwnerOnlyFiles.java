package io.securethrift.cli;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Keys, key stores and keytabs the commands write are readable by their owner alone: written with the process's
 * umask (usually 022) they were readable by every local user, in directories anyone could list.
 */
final class OwnerOnlyFiles {
  private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private OwnerOnlyFiles() {}

  /** Creates {@code dir} and its missing parents for its owner alone; a directory that exists is left as it is. */
  static Path createDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return dir;
    }
    return POSIX ? Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY))
        : Files.createDirectories(dir);
  }

  /** Makes {@code file}, just written, readable and writable by its owner alone. */
  static Path restrict(Path file) throws IOException {
    return POSIX ? Files.setPosixFilePermissions(file, FILE) : file;
  }
}
