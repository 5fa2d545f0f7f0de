package io.securethrift.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A process's CPU time to the nanosecond, followed from one sample to the next through its threads' own clocks
 * ({@code /proc/<pid>/task/<tid>/schedstat}, the scheduler's run time of each thread).
 *
 * <p>Why: {@code /proc/<pid>/stat} gives the process's CPU in clock ticks of 10 ms, and each difference of two samples
 * is off by up to a tick. A benchmark that takes turns a phase at a time sums a dozen differences per iteration of a
 * few hundred milliseconds, so ticks alone put about 5 % of noise into every iteration's CPU. Threads' clocks do not
 * count threads that have ended, though, so the OS total stays the reference: the first sample of a process starts
 * from it, and an interval in which a thread ended, or in which the OS total grew by more than a tick beyond what the
 * threads' clocks account for (a thread that started and ended in between), takes the OS total's difference instead.
 */
final class ThreadClocks {
  /**
   * The processes this JVM follows, by pid; a pid reused by a new process starts over (another start time). Entries
   * stay for the JVM's life: a benchmark samples a few dozen processes, each entry a map of its threads.
   */
  private static final Map<Long, ThreadClocks> FOLLOWED = new ConcurrentHashMap<>();
  /** What HotSpot's JIT compiler threads' names ({@code C1 CompilerThread0}, {@code C2 CompilerThread0}) hold. */
  private static final String COMPILER_THREAD = "CompilerThre";
  /** Kernels built without scheduler statistics have no schedstat; their threads' ticks are the next best. */
  private static final boolean SCHEDSTAT = Files.isReadable(Path.of("/proc/self/schedstat"));

  private final long startTime;
  private final Map<Long, Boolean> compilerByThread = new HashMap<>();
  /** Each thread's run time at the last sample; null before the first. */
  private Map<Long, Long> runTimeByThread;
  private long osCpuNanos;
  private long cpuNanos;

  private ThreadClocks(long startTime) {
    this.startTime = startTime;
  }

  /** CPU time and the JIT compiler threads' part of it, both in nanoseconds. */
  record Reading(long cpuNanos, long jitNanos) {}

  /**
   * The CPU time of the process {@code proc} so far, given what its {@code stat} says now ({@code startTime}, field
   * 22, and {@code osCpuNanos}, user plus system). The JIT's part counts the compiler threads alive now, as before.
   */
  static Reading read(long pid, Path proc, long startTime, long osCpuNanos) {
    ThreadClocks clocks = FOLLOWED.compute(pid, (p, known) -> known != null && known.startTime == startTime ? known
        : new ThreadClocks(startTime));
    synchronized (clocks) {
      return clocks.advance(proc.resolve("task"), osCpuNanos);
    }
  }

  private Reading advance(Path tasks, long osNow) {
    Map<Long, Long> now = new HashMap<>();
    long jit = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        long tid = Long.parseLong(thread.getFileName().toString());
        long runTime;
        boolean compiler;
        try {
          runTime = runTime(thread);
          compiler = compilerByThread.computeIfAbsent(tid, t -> isCompiler(thread));
        } catch (IOException | UncheckedIOException ended) {
          // A thread that ended after the listing: its files are gone (ENOENT) or answer ESRCH, "No such process".
          continue;
        }
        now.put(tid, runTime);
        if (compiler) {
          jit += runTime;
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the threads of " + tasks.getParent()
          + " (has the process exited?): " + e.getMessage(), e);
    }
    if (runTimeByThread == null) {
      cpuNanos = osNow;
    } else {
      long counted = 0;
      for (Map.Entry<Long, Long> thread : now.entrySet()) {
        counted += thread.getValue() - runTimeByThread.getOrDefault(thread.getKey(), 0L);
      }
      long osDelta = osNow - osCpuNanos;
      boolean ended = !now.keySet().containsAll(runTimeByThread.keySet());
      boolean unseen = osDelta - counted > ProcessSample.NANOS_PER_TICK;
      cpuNanos += ended || unseen ? Math.max(counted, osDelta) : counted;
    }
    compilerByThread.keySet().retainAll(now.keySet());
    runTimeByThread = now;
    osCpuNanos = osNow;
    return new Reading(cpuNanos, jit);
  }

  private static boolean isCompiler(Path thread) {
    try {
      return Files.readString(thread.resolve("comm"), StandardCharsets.US_ASCII).contains(COMPILER_THREAD);
    } catch (IOException ended) {
      throw new UncheckedIOException(ended);
    }
  }

  /** The thread's run time: its scheduler clock, or its ticks where the kernel keeps no schedstat. */
  private static long runTime(Path thread) throws IOException {
    if (!SCHEDSTAT) {
      long[] ticks = ProcessSample.cpu(Files.readString(thread.resolve("stat"), StandardCharsets.US_ASCII));
      return ticks[0] + ticks[1];
    }
    String text = Files.readString(thread.resolve("schedstat"), StandardCharsets.US_ASCII);
    int end = text.indexOf(' ');
    return Long.parseLong(end < 0 ? text.trim() : text.substring(0, end));
  }
}
