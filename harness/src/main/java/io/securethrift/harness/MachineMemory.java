package io.securethrift.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How much memory this machine can still give the worker JVMs a benchmark is about to start, read once before the
 * first of them: the kernel's own estimate ({@code MemAvailable}: free memory plus what it can reclaim from caches
 * without swapping), where the machine is Linux. A benchmark that starts more JVMs
 * than fit is ended by the kernel's out-of-memory killer halfway through, so it must size them to this figure.
 */
public final class MachineMemory {
  private static final Path MEMINFO = Path.of("/proc/meminfo");

  private MachineMemory() {}

  /**
   * Bytes available now, or empty where the kernel gives no such estimate (the JVM's free physical memory is no
   * substitute: it leaves out the page cache, most of a busy machine's reclaimable memory).
   */
  public static OptionalLong availableBytes() {
    return memAvailable(MEMINFO);
  }

  /** {@code MemAvailable} from a meminfo file, in bytes, if the file has it. */
  static OptionalLong memAvailable(Path meminfo) {
    // Read line by line: /proc files report a size of 0, and a whole-file read of one may come back truncated.
    try (BufferedReader r = Files.newBufferedReader(meminfo, StandardCharsets.US_ASCII)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("MemAvailable:")) {
          String[] fields = line.substring("MemAvailable:".length()).trim().split("\\s+");
          long value = Long.parseLong(fields[0]);
          long bytes = fields.length > 1 && fields[1].toLowerCase(Locale.ROOT).equals("kb")
              ? Math.multiplyExact(value, 1024L) : value;
          return bytes < 0 ? OptionalLong.empty() : OptionalLong.of(bytes);
        }
      }
    } catch (IOException | NumberFormatException | ArithmeticException e) {
      // No such file (not Linux), an unexpected format or a figure no long holds: no estimate.
    }
    return OptionalLong.empty();
  }
}
