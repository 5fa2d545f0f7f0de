package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bookkeeping of {@link ThreadClocks} over a directory laid out as {@code /proc/<pid>} is, with threads that run,
 * start, end and compile between samples. (Reading a real process is {@link ProcessSampleTest}'s.)
 */
class ThreadClocksTest {
  private static final long MS = 1_000_000;
  /** No real process has a negative pid, so no other test's process is followed under it. */
  private static final long PID = -4242;

  @TempDir
  Path proc;
  private long startTime = 1;

  @BeforeEach
  void newProcess() {
    startTime = System.nanoTime();
  }

  @Test
  void firstSampleIsTheOsTotalThenTheThreadsClocksCount() throws IOException {
    thread(1, "main", 100 * MS);
    thread(2, "C2 CompilerThre", 30 * MS);
    assertEquals(new ThreadClocks.Reading(120 * MS, 30 * MS), read(120 * MS));

    // 20 ms on the main thread, 10 ms compiling; the OS total, in ticks, says 10 ms more.
    thread(1, "main", 120 * MS);
    thread(2, "C2 CompilerThre", 40 * MS);
    assertEquals(new ThreadClocks.Reading(150 * MS, 40 * MS), read(130 * MS));
  }

  @Test
  void aThreadThatStartsIsCountedFromZero() throws IOException {
    thread(1, "main", 100 * MS);
    read(100 * MS);
    thread(7, "worker", 10 * MS);
    assertEquals(110 * MS, read(100 * MS).cpuNanos());
  }

  @Test
  void anIntervalInWhichAThreadEndedTakesTheOsTotal() throws IOException {
    thread(1, "main", 100 * MS);
    thread(2, "worker", 50 * MS);
    read(150 * MS);
    // The worker ran 40 ms more and ended; only the OS total still has them.
    for (String file : new String[] {"schedstat", "comm", "stat", ""}) {
      Files.delete(proc.resolve("task/2").resolve(file));
    }
    thread(1, "main", 110 * MS);
    assertEquals(200 * MS, read(200 * MS).cpuNanos());
  }

  @Test
  void moreThanATickUnseenByTheThreadsTakesTheOsTotal() throws IOException {
    thread(1, "main", 100 * MS);
    read(100 * MS);
    // A thread that started and ended between the samples used 300 ms.
    thread(1, "main", 110 * MS);
    assertEquals(400 * MS, read(400 * MS).cpuNanos());
  }

  @Test
  void aThreadWhoseFilesAreGoneWhenReadIsSkipped() throws IOException {
    thread(1, "main", 100 * MS);
    Files.createDirectories(proc.resolve("task/9"));
    assertEquals(new ThreadClocks.Reading(100 * MS, 0), read(100 * MS));
    thread(1, "main", 120 * MS);
    assertEquals(120 * MS, read(100 * MS).cpuNanos());
  }

  @Test
  void aReusedPidStartsOver() throws IOException {
    thread(1, "main", 100 * MS);
    read(100 * MS);
    startTime++;
    thread(1, "main", 10 * MS);
    assertEquals(10 * MS, read(10 * MS).cpuNanos());
  }

  @Test
  void aProcessWithoutThreadsDirectorySaysSo() {
    assertThrows(IllegalStateException.class, () -> read(0));
  }

  private ThreadClocks.Reading read(long osCpuNanos) {
    return ThreadClocks.read(PID, proc, startTime, osCpuNanos);
  }

  /**
   * Thread {@code tid} named {@code name}, its scheduler clock at {@code runNanos}, and its ticks to match (whole
   * ticks, so that a kernel without schedstat, where the ticks are read instead, gives the same figures).
   */
  private void thread(long tid, String name, long runNanos) throws IOException {
    Path dir = Files.createDirectories(proc.resolve("task").resolve(Long.toString(tid)));
    Files.writeString(dir.resolve("comm"), name + "\n");
    Files.writeString(dir.resolve("schedstat"), runNanos + " 1000 7\n");
    Files.writeString(dir.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 0 0 0 0 0 "
        + runNanos / ProcessSample.NANOS_PER_TICK + " 0 0 0 20 0 1 0 1 0 0\n");
  }
}
