package io.securethrift.bench.peer;

import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.testkit.Directories;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A profiling aid, not a test: peer-bench cells in this one JVM, warmed up, then measured when a line arrives on
 * standard input, so strace or JFR can attach to this process for exactly the measured calls. Arguments: mode,
 * pairings (comma-separated), payload bytes or {@code connect} (new connections, as the connections metric makes
 * them), seconds per turn, turns, then optionally payload sizes to warm up with first (as a peer-bench round sends
 * larger messages first). With several pairings the cells take turns, so drift of
 * a busy machine hits each alike. It prints its pid, then per pairing the operations, the CPU time and the bytes
 * allocated per operation of all threads together (the client and the server's worker; the idle cells do nothing),
 * and the CPU time of the whole process, which adds the JIT compiler's and the garbage collector's threads (what
 * peer-bench's CPU column counts).
 * A second line ends it.
 */
public final class PeerProfile {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private PeerProfile() {}

  public static void main(String[] args) throws Exception {
    BenchMode mode = PeerModes.MODES.parse("mode", args[0]);
    PeerCell.prepareJvm(mode);
    String[] pairings = args[1].split(",");
    boolean connect = args[2].equals(PeerCell.CONNECT);
    int size = connect ? 0 : Integer.parseInt(args[2]);
    double seconds = Double.parseDouble(args[3]);
    int turns = Integer.parseInt(args[4]);
    Path dir = Files.createTempDirectory("peer-profile-");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    List<PeerCell> cells = new ArrayList<>();
    try (BenchSecurity security = new BenchSecurity(dir)) {
      PeerMaterial material = PeerMaterial.create(security, mode.sasl());
      for (String pairing : pairings) {
        PeerCell cell = new PeerCell(mode, Pairing.of(pairing), material);
        cells.add(cell);
        for (int i = 5; i < args.length; i++) {
          cell.echo(Integer.parseInt(args[i]), 3, false);
        }
        if (connect) {
          cell.connect(5);
        } else {
          cell.echo(size, 5, false);
        }
      }
      System.out.println("pid " + ProcessHandle.current().pid());
      in.readLine();
      long[] ops = new long[cells.size()];
      long[] cpu = new long[cells.size()];
      long[] allocated = new long[cells.size()];
      long[] process = new long[cells.size()];
      for (int turn = 0; turn < turns; turn++) {
        for (int c = 0; c < cells.size(); c++) {
          long cpuBefore = sum(THREADS.getThreadCpuTime(THREADS.getAllThreadIds()));
          long allocatedBefore = sum(THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds()));
          long processBefore = PROCESS.getProcessCpuTime();
          LineRecord done = connect ? cells.get(c).connect(seconds) : cells.get(c).echo(size, seconds, turn > 0);
          cpu[c] += sum(THREADS.getThreadCpuTime(THREADS.getAllThreadIds())) - cpuBefore;
          allocated[c] += sum(THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) - allocatedBefore;
          process[c] += PROCESS.getProcessCpuTime() - processBefore;
          ops[c] += done.getLong("ops");
        }
      }
      for (int c = 0; c < cells.size(); c++) {
        System.out.printf(Locale.ROOT, "%s: ops %d, %.1f us CPU/op, %.0f bytes allocated/op, process %.1f us CPU/op%n",
            pairings[c], ops[c], cpu[c] / 1e3 / ops[c], allocated[c] / (double) ops[c], process[c] / 1e3 / ops[c]);
      }
      System.out.println("done");
      in.readLine();
    } finally {
      for (PeerCell cell : cells) {
        cell.close();
      }
      Directories.deleteRecursively(dir);
    }
  }

  private static long sum(long[] values) {
    long s = 0;
    for (long v : values) {
      s += Math.max(0, v);
    }
    return s;
  }
}
