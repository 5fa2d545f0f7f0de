package io.securethrift.bench.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a process has spent so far: CPU time (user and system, from {@code /proc/<pid>/stat}) and context switches of
 * all its threads (from each {@code /proc/<pid>/task/<tid>/status}). Two readings around a window, divided by the calls
 * answered in it, give a server's cost per call, which stays comparable on a machine that other work keeps busy while
 * calls per second do not.
 *
 * @param cpuNanos user plus system CPU time, in clock-tick resolution (10 ms on most kernels)
 * @param contextSwitches voluntary plus involuntary context switches of the threads alive now
 */
record ProcCost(long cpuNanos, long contextSwitches) {
  /** Clock ticks per second of {@code /proc} times; 100 on every Linux this runs on (USER_HZ). */
  private static final long TICKS_PER_SECOND = 100;

  static ProcCost of(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      String stat = Files.readString(proc.resolve("stat"));
      // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th
      // and 13th of them (the 14th and 15th of the line).
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      long switches = 0;
      try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
        for (Path task : tasks.toList()) {
          switches += switches(task.resolve("status"));
        }
      }
      return new ProcCost(ticks * 1_000_000_000L / TICKS_PER_SECOND, switches);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + proc + " (server-bench measures processes on Linux only)", e);
    }
  }

  /** A thread's switches; 0 for a thread that ended while the others were read. */
  private static long switches(Path status) {
    List<String> lines;
    try {
      lines = Files.readAllLines(status);
    } catch (IOException e) {
      return 0;
    }
    long sum = 0;
    for (String line : lines) {
      if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
        sum += Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return sum;
  }

  ProcCost minus(ProcCost before) {
    return new ProcCost(cpuNanos - before.cpuNanos, contextSwitches - before.contextSwitches);
  }
}
