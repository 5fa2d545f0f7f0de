package io.securethrift.bench.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's resident memory and thread count from {@code /proc/<pid>/status}, as the kernel counts them: resident
 * pages of heap, stacks, metaspace and native buffers alike.
 *
 * @param rssKb {@code VmRSS} in KiB
 * @param threads {@code Threads}
 */
record ProcStatus(long rssKb, long threads) {
  static ProcStatus of(long pid) {
    return read(Path.of("/proc", Long.toString(pid), "status"));
  }

  /** The figures of a {@code status} file in {@code /proc}'s format. */
  static ProcStatus read(Path file) {
    long rss = -1;
    long threads = -1;
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith("VmRSS:")) {
          rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
        } else if (line.startsWith("Threads:")) {
          threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " (server-bench measures processes on Linux only)", e);
    }
    if (rss < 0 || threads < 0) {
      throw new IllegalStateException(file + " has no VmRSS or Threads line");
    }
    return new ProcStatus(rss, threads);
  }
}
