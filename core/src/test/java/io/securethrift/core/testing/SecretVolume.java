package io.securethrift.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A directory laid out and updated the way the kubelet mounts a Kubernetes Secret or ConfigMap (its
 * {@code AtomicWriter}): each version's files live in a hidden timestamped directory such as
 * {@code ..2026_12_07_10_15_00.000000001}; {@code ..data} is a symbolic link to the current one; every visible name
 * is a symbolic link {@code tls.crt -> ..data/tls.crt}. An update writes the new version into a new timestamped
 * directory, points a new link {@code ..data_tmp} at it, renames that link over {@code ..data} in one
 * {@code rename(2)} (the atomic swap), adds links for new names, removes those of names gone and deletes the old
 * version's directory. The visible
 * paths never change and never point at half-written files; what they resolve to does.
 */
public final class SecretVolume {
  /** Writes one version's files into the directory it is given. */
  @FunctionalInterface
  public interface Content {
    void writeTo(Path version) throws Exception;
  }

  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy_MM_dd_HH_mm_ss");
  private static final String DATA = "..data";
  private static final String DATA_TMP = "..data_tmp";

  private final Path dir;
  private final AtomicInteger versions = new AtomicInteger();

  private SecretVolume(Path dir) {
    this.dir = dir;
  }

  /** A volume in {@code dir} (created if absent, otherwise empty) holding {@code content} as its first version. */
  public static SecretVolume create(Path dir, Content content) {
    try {
      Files.createDirectories(dir);
      SecretVolume volume = new SecretVolume(dir);
      volume.update(content);
      return volume;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a secret volume in " + dir, e);
    }
  }

  /** The visible path of {@code name}: a symbolic link through {@code ..data}. */
  public Path file(String name) {
    return dir.resolve(name);
  }

  /** The directory {@code ..data} points at now. */
  public Path currentVersion() {
    try {
      return dir.resolve(Files.readSymbolicLink(dir.resolve(DATA)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + dir.resolve(DATA), e);
    }
  }

  /** The timestamped version directories present, hidden ones included (one, except during an update). */
  public List<Path> versionDirectories() {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith("..") && !name.equals(DATA) && !name.equals(DATA_TMP)
            && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          found.add(entry);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    return found;
  }

  /** Publishes {@code content} as the new version, as the kubelet does when the Secret changes. */
  public void update(Content content) throws IOException {
    Path previous = Files.isSymbolicLink(dir.resolve(DATA)) ? currentVersion() : null;
    Path version = dir.resolve(".." + LocalDateTime.now().format(TIMESTAMP) + "."
        + String.format("%09d", versions.incrementAndGet()));
    Files.createDirectory(version);
    try {
      content.writeTo(version);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot write the secret's files into " + version, e);
    }
    Path tmp = dir.resolve(DATA_TMP);
    Files.deleteIfExists(tmp);
    Files.createSymbolicLink(tmp, version.getFileName());
    // rename(2) of the new link over the old one: the swap readers see at once, or not at all.
    Files.move(tmp, dir.resolve(DATA), StandardCopyOption.ATOMIC_MOVE);
    List<String> current = new ArrayList<>();
    try (DirectoryStream<Path> names = Files.newDirectoryStream(version)) {
      for (Path name : names) {
        current.add(name.getFileName().toString());
      }
    }
    for (String name : current) {
      Path visible = dir.resolve(name);
      if (!Files.isSymbolicLink(visible)) {
        Files.createSymbolicLink(visible, Path.of(DATA).resolve(name));
      }
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.startsWith("..") && Files.isSymbolicLink(entry) && !current.contains(name)) {
          Files.delete(entry);
        }
      }
    }
    if (previous != null) {
      deleteRecursively(previous);
    }
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> tree = Files.walk(root)) {
      for (Path path : (Iterable<Path>) tree.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }

  @Override
  public String toString() {
    return "SecretVolume[" + dir + "]";
  }
}
