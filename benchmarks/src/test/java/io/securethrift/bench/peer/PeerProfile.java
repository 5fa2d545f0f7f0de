package io.securethrift.bench.peer;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.kdc.Directories;
import io.securethrift.kdc.EmbeddedKdc;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A profiling aid, not a test: one peer-bench cell in this JVM, warmed up, then measured when a line arrives on
 * standard input, so a profiler or strace can attach to this process for exactly the measured calls. Arguments:
 * mode, pairing, payload bytes, seconds. It prints its pid, then the measured operations; a second line ends it.
 */
public final class PeerProfile {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private PeerProfile() {}

  private static Map<Long, Long> allocated() {
    Map<Long, Long> bytes = new HashMap<>();
    for (long id : THREADS.getAllThreadIds()) {
      bytes.put(id, THREADS.getThreadAllocatedBytes(id));
    }
    return bytes;
  }

  private static Map<Long, Long> threadCpu() {
    Map<Long, Long> cpu = new HashMap<>();
    for (long id : THREADS.getAllThreadIds()) {
      cpu.put(id, THREADS.getThreadCpuTime(id));
    }
    return cpu;
  }

  public static void main(String[] args) throws Exception {
    PeerMode mode = PeerMode.of(args[0]);
    int size = Integer.parseInt(args[2]);
    double seconds = Double.parseDouble(args[3]);
    Path dir = Files.createTempDirectory("peer-profile-");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (EmbeddedKdc kdc = mode.sasl() ? EmbeddedKdc.builder().start() : null;
         PeerCell cell = new PeerCell(mode, Pairing.of(args[1]), PeerMaterial.create(dir, kdc))) {
      cell.echo(size, 5);
      System.out.println("pid " + ProcessHandle.current().pid());
      in.readLine();
      Map<Long, Long> before = threadCpu();
      Map<Long, Long> allocatedBefore = allocated();
      LineRecord done = cell.echo(size, seconds);
      Map<Long, Long> after = threadCpu();
      Map<Long, Long> allocatedAfter = allocated();
      long ops = done.getLong("ops");
      System.out.println("ops " + ops + " nanos " + done.get("nanos") + " cpu " + done.get("cpu"));
      // CPU per operation of each thread that did work: the client (main) and the server's worker apart.
      after.forEach((id, cpu) -> {
        long used = cpu - before.getOrDefault(id, 0L);
        ThreadInfo info = THREADS.getThreadInfo(id);
        if (used > ops * 1000 && info != null) {
          System.out.printf(Locale.ROOT, "thread %s: %.1f us/op, %.0f bytes allocated/op%n", info.getThreadName(),
              used / 1e3 / ops, (allocatedAfter.get(id) - allocatedBefore.getOrDefault(id, 0L)) / (double) ops);
        }
      });
      in.readLine();
    } finally {
      Directories.deleteRecursively(dir);
    }
  }
}
