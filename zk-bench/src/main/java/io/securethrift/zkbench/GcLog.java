package io.securethrift.zkbench;

import io.securethrift.harness.ProcessSample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Garbage collection of a JVM that cannot report it itself (a ZooKeeper server runs ZooKeeper's main, not a
 * benchmark protocol), read from the unified GC log it writes with {@link #option}: every {@code Pause} line's
 * duration, the time the application stood still, as the JVM's collector MXBeans count it.
 */
final class GcLog {
  /** {@code [0.512s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 25M->5M(256M) 3.456ms}. */
  private static final Pattern PAUSE = Pattern.compile("\\bGC\\(\\d+\\) Pause .* ([0-9.]+)ms\\s*$");

  private GcLog() {}

  /** The JVM option that writes the log of each process into {@code dir}, named by process id. */
  static String option(Path dir) {
    return "-Xlog:gc:file=" + dir.toAbsolutePath().resolve("gc-%p.log");
  }

  /** The log {@link #option} makes process {@code pid} write. */
  static Path file(Path dir, long pid) {
    return dir.toAbsolutePath().resolve("gc-" + pid + ".log");
  }

  /** Processes {@code pids} together, each with the garbage collection its log in {@code dir} shows. */
  static ProcessSample ensemble(List<Long> pids, Path dir) {
    ProcessSample sum = ProcessSample.ZERO;
    for (long pid : pids) {
      long[] gc = totals(file(dir, pid));
      sum = sum.plus(ProcessSample.of(pid).withGc(gc[0], gc[1]));
    }
    return sum;
  }

  /** Pauses and their milliseconds (rounded) so far; none while the JVM has not yet created its log. */
  static long[] totals(Path log) {
    String text;
    try {
      text = Files.readString(log, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new long[] {0, 0};
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the GC log " + log + ": " + e.getMessage(), e);
    }
    return totalsOf(text);
  }

  static long[] totalsOf(String text) {
    long count = 0;
    double millis = 0;
    for (String line : text.split("\n")) {
      Matcher m = PAUSE.matcher(line);
      if (m.find()) {
        count++;
        millis += Double.parseDouble(m.group(1));
      }
    }
    return new long[] {count, Math.round(millis)};
  }
}
