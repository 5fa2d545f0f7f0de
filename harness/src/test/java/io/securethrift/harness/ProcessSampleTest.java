package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampler against a real child JVM that burns a known amount of CPU and writes a known number of bytes. */
class ProcessSampleTest {
  @TempDir
  Path dir;

  @Test
  void measuresAChildProcessCpuAndWrittenBytesAsTheOsAccountsThem() throws Exception {
    Child child = new Child();
    try (child) {
      ProcessSample before = ProcessSample.of(child.pid());
      child.run("work 600 3000000");
      ProcessSample used = ProcessSample.of(child.pid()).minus(before);

      // 600 ms on the burning thread, plus whatever the JVM's own threads did meanwhile (JIT, GC).
      assertTrue(used.cpuNanos() >= Duration.ofMillis(590).toNanos() && used.cpuNanos() < Duration.ofSeconds(3)
          .toNanos(), "cpu " + used);
      // CPU comes from the threads' clocks, user and system from the OS's ticks of 10 ms: they differ by a tick or so.
      assertTrue(Math.abs(used.cpuNanos() - used.userNanos() - used.systemNanos()) <= 2 * ProcessSample.NANOS_PER_TICK,
          used.toString());
      assertTrue(used.userNanos() > used.systemNanos(), "a busy loop runs in user mode: " + used);
      assertTrue(used.writtenBytes() >= 3_000_000 && used.writtenBytes() < 3_100_000, "written " + used);
      assertEquals(ProcessSample.UNKNOWN, used.gcMillis(), "only the process itself knows its GC");
      // A fresh JVM compiles as it runs the loop; its compiler threads' CPU is a part of the process's.
      assertTrue(used.jitNanos() >= 0 && used.jitNanos() <= used.cpuNanos(), "jit " + used);
      assertTrue(ProcessSample.of(child.pid()).jitNanos() > 0, "a JVM compiles something before it says ready");

      // The JDK's own account of the same process agrees to within a few clock ticks.
      long jdk = child.process.toHandle().info().totalCpuDuration().orElseThrow().toNanos();
      long ours = ProcessSample.of(child.pid()).cpuNanos();
      assertTrue(Math.abs(jdk - ours) <= Duration.ofMillis(50).toNanos(), "jdk " + jdk + " vs /proc " + ours);
    }
    assertThrows(IllegalStateException.class, () -> ProcessSample.of(child.pid()).cpuNanos(),
        "an exited process cannot be sampled");
  }

  @Test
  void countsCpuToTheNanosecondAndKeepsWhatEndedThreadsUsed() throws Exception {
    Child child = new Child();
    try (child) {
      // 13 ms bursts: in ticks of 10 ms, most differences would read 10 ms, below what the burning thread alone used.
      for (int burst = 0; burst < 5; burst++) {
        ProcessSample before = ProcessSample.of(child.pid());
        child.run("work 13 1");
        long used = ProcessSample.of(child.pid()).minus(before).cpuNanos();
        assertTrue(used >= Duration.ofMillis(13).toNanos() && used < Duration.ofMillis(500).toNanos(),
            "burst " + burst + ": " + used + " ns");
      }
      // A thread that burns 300 ms and ends before the next sample: its time is still counted (the OS total's).
      ProcessSample before = ProcessSample.of(child.pid());
      child.run("thread 300 1");
      long used = ProcessSample.of(child.pid()).minus(before).cpuNanos();
      assertTrue(used >= Duration.ofMillis(290).toNanos() && used < Duration.ofSeconds(2).toNanos(), used + " ns");
    }
  }

  @Test
  void thisProcessReportsItsOwnGarbageCollection() {
    ProcessSample before = ProcessSample.self();
    System.gc();
    ProcessSample used = ProcessSample.self().minus(before);
    assertTrue(used.gcCount() >= 1, used.toString());
    assertTrue(used.gcMillis() >= 0 && used.cpuNanos() >= 0, used.toString());
    assertEquals(ProcessSample.UNKNOWN, ProcessSample.unknown().minus(before).cpuNanos());
  }

  /** A {@link BusyChild} JVM that has said it is ready; closing its input ends it. */
  private final class Child implements AutoCloseable {
    final Process process;
    private final BufferedReader out;
    private final Writer in;

    Child() throws Exception {
      process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), BusyChild.class.getName(), dir.resolve("out").toString()))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      try {
        assertEquals("ready", out.readLine());
      } catch (Exception | AssertionError e) {
        process.destroyForcibly().waitFor();
        throw e;
      }
    }

    long pid() {
      return process.pid();
    }

    /** Sends one command line and waits for the child's {@code done}. */
    void run(String command) throws Exception {
      in.write(command + "\n");
      in.flush();
      assertTrue(out.readLine().startsWith("done"), command);
    }

    @Override
    public void close() throws Exception {
      in.close();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
      out.close();
    }
  }
}
