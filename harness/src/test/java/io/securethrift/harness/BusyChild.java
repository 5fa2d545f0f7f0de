package io.securethrift.harness;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process {@link ProcessSampleTest} samples: on each line {@code work <cpuMillis> <bytes>} it burns that much CPU
 * on its main thread ({@code thread <cpuMillis> <bytes>}: on a new thread that then ends), writes that many bytes to
 * the file named by its argument, and answers {@code done}; it exits when its input closes.
 */
public final class BusyChild {
  private BusyChild() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("ready");
    System.out.flush();
    long sink = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] parts = line.split(" ");
      long millis = Long.parseLong(parts[1]);
      if (parts[0].equals("thread")) {
        Thread burner = new Thread(() -> burn(millis));
        burner.start();
        burner.join();
      } else {
        sink += burn(millis);
      }
      Files.write(Path.of(args[0]), new byte[Integer.parseInt(parts[2])]);
      System.out.println("done " + (sink & 1));
      System.out.flush();
    }
  }

  /** Burns {@code millis} of CPU on the calling thread, as its own clock counts it. */
  private static long burn(long millis) {
    long sink = 0;
    long until = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + millis * 1_000_000;
    while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < until) {
      for (int i = 0; i < 100_000; i++) {
        sink += i * 31L ^ sink;
      }
    }
    return sink;
  }
}
