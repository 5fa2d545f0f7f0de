package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How server-bench reads {@code /proc/<pid>/status} and its threads' status files, on this process's own files and
 * on crafted files in the kernel's format: which lines count, and what a file without them does.
 */
class ProcFilesTest {
  /** The lines of a real status file around the ones read (Linux 6, a JVM). */
  private static final String STATUS = """
      Name:\tjava
      Umask:\t0022
      State:\tS (sleeping)
      Tgid:\t4242
      VmPeak:\t 7312440 kB
      VmSize:\t 7247904 kB
      VmHWM:\t  101344 kB
      VmRSS:\t   98304 kB
      RssAnon:\t   80000 kB
      VmSwap:\t       0 kB
      Threads:\t27
      SigQ:\t0/63457
      voluntary_ctxt_switches:\t1234
      nonvoluntary_ctxt_switches:\t56
      """;

  @TempDir
  Path dir;

  @Test
  void statusReadsVmRssInKibAndThreadsAndNothingElse() throws IOException {
    assertEquals(new ProcStatus(98_304, 27), ProcStatus.read(write("status", STATUS)),
        "VmRSS, not VmHWM or RssAnon; Threads, not Tgid");
  }

  @Test
  void statusOfThisJvmMatchesItsOwnProcFile() throws IOException {
    ProcStatus byPid = ProcStatus.of(ProcessHandle.current().pid());
    ProcStatus self = ProcStatus.read(Path.of("/proc/self/status"));
    assertTrue(self.threads() >= 2 && byPid.threads() >= 2, self + " " + byPid);
    assertTrue(Math.abs(self.rssKb() - byPid.rssKb()) < 512 * 1024, "the same process read twice: " + self + " "
        + byPid);
  }

  @Test
  void aStatusWithoutResidentMemoryOrThreadsIsAnError() throws IOException {
    // A kernel thread's status has no Vm lines.
    Path kernelThread = write("kthread", "Name:\tkthreadd\nState:\tS (sleeping)\nThreads:\t1\n");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProcStatus.read(kernelThread));
    assertEquals(kernelThread + " has no VmRSS or Threads line", e.getMessage());
    Path noThreads = write("nothreads", "VmRSS:\t 10 kB\n");
    assertThrows(IllegalStateException.class, () -> ProcStatus.read(noThreads));
    assertEquals(new ProcStatus(0, 1), ProcStatus.read(write("zero", "VmRSS:\t0 kB\nThreads:\t1\n")),
        "zero is a reading, not a missing one");
  }

  @Test
  void aThreadsSwitchesAreVoluntaryPlusInvoluntary() throws IOException {
    assertEquals(1234 + 56, ProcCost.switches(write("task-status", STATUS)));
    assertEquals(7, ProcCost.switches(write("one", "voluntary_ctxt_switches:\t7\n")));
    assertEquals(0, ProcCost.switches(write("none", "Name:\tjava\n")));
  }

  @Test
  void aThreadThatEndedBeforeItsFileWasReadHasNoSwitches() {
    assertEquals(0, ProcCost.switches(dir.resolve("gone")), "a vanished task counts 0, not an error");
  }

  @Test
  void theProcessSwitchesAreAtLeastThisThreadsOwn() {
    long mine = ProcCost.switches(Path.of("/proc/thread-self/status"));
    ProcCost cost = ProcCost.of(ProcessHandle.current().pid());
    assertTrue(mine > 0, "this thread has switched at least once");
    assertTrue(cost.contextSwitches() >= mine, "every thread counts, this one among them: " + cost + " >= " + mine);
    assertTrue(cost.cpuNanos() > 0, cost.toString());
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }
}
