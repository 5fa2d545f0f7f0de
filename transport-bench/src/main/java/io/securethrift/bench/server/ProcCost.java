package io.securethrift.bench.server;

import io.securethrift.harness.ProcessSample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a process has spent so far: CPU time less its JIT compiler threads' ({@link ProcessSample}) and context
 * switches of all its threads (from each {@code /proc/<pid>/task/<tid>/status}). Two readings around a window, divided
 * by the calls answered in it, give a server's cost per call, which stays comparable on a machine that other work keeps
 * busy while calls per second do not. The compilers' share is left out as in the other benchmarks: in the first calls
 * window, a few seconds after start, the non-blocking server's C2 compiler still used a third of its CPU (perf), which
 * a long-running server no longer pays.
 *
 * @param cpuNanos user plus system CPU time without the JIT compilers', in clock-tick resolution (10 ms)
 * @param contextSwitches voluntary plus involuntary context switches of the threads alive now
 */
record ProcCost(long cpuNanos, long contextSwitches) {

  static ProcCost of(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      ProcessSample used = ProcessSample.of(pid);
      long switches = 0;
      try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
        for (Path task : tasks.toList()) {
          switches += switches(task.resolve("status"));
        }
      }
      return new ProcCost(used.cpuNanos() - used.jitNanos(), switches);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + proc + " (server-bench measures processes on Linux only)", e);
    }
  }

  /** A thread's switches; 0 for a thread that ended while the others were read. */
  static long switches(Path status) {
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
