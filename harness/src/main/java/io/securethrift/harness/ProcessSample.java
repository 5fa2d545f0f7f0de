package io.securethrift.harness;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What a process has used so far, as the operating system accounts it: CPU time (user and system, from
 * {@code /proc/<pid>/stat}, followed to the nanosecond through its threads' scheduler clocks), the part of it its JVM's
 * JIT compiler threads used, and bytes passed to read and write system calls (from {@code /proc/<pid>/io}:
 * for a benchmark's client or server, its socket traffic as sent on the wire, TLS records and SASL tokens included),
 * plus its JVM's garbage collection, which only the process itself can report ({@link #withGc}). The difference of two
 * samples ({@link #minus}) is what happened in between. A value the platform does not give is {@link #UNKNOWN}.
 *
 * @param cpuNanos user plus system CPU time, to the nanosecond where the threads' clocks can be read: from a process's
 *     first sample in this JVM on, the sum of its threads' scheduler clocks, which the 10 ms clock ticks of
 *     {@code /proc/<pid>/stat} only bound (see {@code ThreadClocks}); so it and user plus system differ by about a
 *     tick
 * @param userNanos user CPU time, in the OS's clock ticks of 10 ms
 * @param systemNanos system (kernel) CPU time, in the OS's clock ticks of 10 ms
 * @param readBytes bytes read through read system calls (rchar)
 * @param writtenBytes bytes written through write system calls (wchar)
 * @param gcCount garbage collections
 * @param gcMillis time spent in garbage collection, as the JVM's collectors report it
 * @param jitNanos CPU time of the JVM's JIT compiler threads (HotSpot's {@code C1/C2 CompilerThread}s), part of
 *     {@code cpuNanos}: compiling is warm-up work that comes in bursts, apart from the work being measured. Only the
 *     compiler threads alive at the sample are counted, so a JVM that stops idle ones (HotSpot does with more than one
 *     of a kind) needs {@link #KEEP_COMPILER_THREADS} for an exact count.
 */
public record ProcessSample(long cpuNanos, long userNanos, long systemNanos, long readBytes, long writtenBytes,
    long gcCount, long gcMillis, long jitNanos) {

  public static final long UNKNOWN = -1;
  /** Nothing used: where a sum of differences ({@link #plus}) starts. */
  public static final ProcessSample ZERO = new ProcessSample(0, 0, 0, 0, 0, 0, 0, 0);

  /**
   * Clock ticks per second of {@code /proc/<pid>/stat}'s times: the kernel's USER_HZ, 100 on every architecture the
   * JDK runs on (the kernel scales its internal HZ to it for this interface).
   */
  static final long USER_HZ = 100;
  static final long NANOS_PER_TICK = 1_000_000_000L / USER_HZ;
  /**
   * The JVM option that keeps every JIT compiler thread alive for the JVM's life, for a process whose
   * {@link #jitNanos} must be exact: HotSpot otherwise ends idle ones when it runs more than one of a kind, and the
   * CPU they used goes with them.
   */
  public static final String KEEP_COMPILER_THREADS = "-XX:-UseDynamicNumberOfCompilerThreads";

  /** Nothing known, for a process that cannot be sampled (a remote server). */
  public static ProcessSample unknown() {
    return new ProcessSample(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);
  }

  /**
   * The operating system's account of process {@code pid}; GC is unknown until {@link #withGc}. Where there is no
   * {@code /proc} the JDK's {@link ProcessHandle.Info#totalCpuDuration()} gives the total CPU time alone.
   *
   * @throws IllegalStateException if the process does not exist (any more)
   */
  public static ProcessSample of(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    if (Files.isDirectory(proc)) {
      String stat = read(proc.resolve("stat"));
      long[] cpu = cpu(stat);
      ThreadClocks.Reading clocks = ThreadClocks.read(pid, proc, startTime(stat), cpu[0] + cpu[1]);
      long[] io = io(proc.resolve("io"));
      return new ProcessSample(clocks.cpuNanos(), cpu[0], cpu[1], io[0], io[1], UNKNOWN, UNKNOWN, clocks.jitNanos());
    }
    ProcessHandle handle = ProcessHandle.of(pid)
        .orElseThrow(() -> new IllegalStateException("process " + pid + " is not running"));
    long total = handle.info().totalCpuDuration().map(Duration::toNanos).orElse(UNKNOWN);
    return new ProcessSample(total, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);
  }

  /** This process, its own garbage collection included. */
  public static ProcessSample self() {
    long[] gc = gcTotals();
    return of(ProcessHandle.current().pid()).withGc(gc[0], gc[1]);
  }

  /** This JVM's collections and collection milliseconds so far, summed over its collectors. */
  public static long[] gcTotals() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new long[] {count, millis};
  }

  /**
   * A side's CPU without its JIT compiler threads' share, in the unit a raw row records both in: what the work being
   * measured used. The benchmarks' CPU metrics count this, because compiling is warm-up work that comes in bursts
   * (and, where a mode and its baseline take turns in one JVM, the code they share meets both's types, which can make
   * the JIT compile it again), which a long-running server does not keep paying; the raw rows keep both. Where the
   * JIT's share is not known (NaN) it stays in.
   */
  public static double withoutJit(double cpu, double jit) {
    return Double.isNaN(jit) ? cpu : cpu - jit;
  }

  /**
   * This sample as named fields, each name {@code prefix} followed by {@code cpu}, {@code user}, {@code sys},
   * {@code read}, {@code written}, {@code gcCount}, {@code gcMillis} or {@code jit}: for a process to send what it
   * sampled over a line protocol ({@link #fromFields} reads it back).
   */
  public Map<String, Long> fields(String prefix) {
    Map<String, Long> f = new LinkedHashMap<>();
    f.put(prefix + "cpu", cpuNanos);
    f.put(prefix + "user", userNanos);
    f.put(prefix + "sys", systemNanos);
    f.put(prefix + "read", readBytes);
    f.put(prefix + "written", writtenBytes);
    f.put(prefix + "gcCount", gcCount);
    f.put(prefix + "gcMillis", gcMillis);
    f.put(prefix + "jit", jitNanos);
    return f;
  }

  /** A {@link #columns} name: CPU milliseconds (user plus system, JIT compilers included). */
  public static final String CPU_MS = "cpu_ms";
  /** A {@link #columns} name: the JIT compilers' CPU milliseconds. */
  public static final String JIT_MS = "jit_ms";
  /** A {@link #columns} name: garbage collection pause milliseconds, as the process reported them. */
  public static final String GC_MS = "gc_ms";
  /** A {@link #columns} name: garbage collections. */
  public static final String GC_COUNT = "gc_count";
  /** A {@link #columns} name: bytes the process read from storage. */
  public static final String READ_BYTES = "read_bytes";
  /** A {@link #columns} name: bytes the process wrote to storage. */
  public static final String WRITTEN_BYTES = "written_bytes";

  /**
   * This sample as a measurement's columns, each name {@code prefix} followed by {@link #CPU_MS}, {@code user_ms},
   * {@code sys_ms}, {@link #JIT_MS}, {@link #GC_MS}, {@link #GC_COUNT}, {@link #READ_BYTES} or
   * {@link #WRITTEN_BYTES}; what is unknown is NaN, which the analysis and the reports leave out.
   */
  public Map<String, Number> columns(String prefix) {
    Map<String, Number> v = new LinkedHashMap<>();
    v.put(prefix + CPU_MS, millis(cpuNanos));
    v.put(prefix + "user_ms", millis(userNanos));
    v.put(prefix + "sys_ms", millis(systemNanos));
    v.put(prefix + JIT_MS, millis(jitNanos));
    v.put(prefix + GC_MS, known(gcMillis));
    v.put(prefix + GC_COUNT, known(gcCount));
    v.put(prefix + READ_BYTES, known(readBytes));
    v.put(prefix + WRITTEN_BYTES, known(writtenBytes));
    return v;
  }

  private static Number millis(long nanos) {
    return nanos == UNKNOWN ? Double.NaN : nanos / 1e6;
  }

  private static Number known(long value) {
    return value == UNKNOWN ? Double.NaN : value;
  }

  /** The sample whose {@link #fields} under {@code prefix} {@code field} gives by name. */
  public static ProcessSample fromFields(String prefix, ToLongFunction<String> field) {
    return new ProcessSample(field.applyAsLong(prefix + "cpu"), field.applyAsLong(prefix + "user"),
        field.applyAsLong(prefix + "sys"), field.applyAsLong(prefix + "read"), field.applyAsLong(prefix + "written"),
        field.applyAsLong(prefix + "gcCount"), field.applyAsLong(prefix + "gcMillis"),
        field.applyAsLong(prefix + "jit"));
  }

  /** This sample with the garbage collection its process reported about itself. */
  public ProcessSample withGc(long count, long millis) {
    return new ProcessSample(cpuNanos, userNanos, systemNanos, readBytes, writtenBytes, count, millis, jitNanos);
  }

  /** What was used between {@code before} and this sample; unknown where either is unknown. */
  public ProcessSample minus(ProcessSample before) {
    return new ProcessSample(delta(cpuNanos, before.cpuNanos), delta(userNanos, before.userNanos),
        delta(systemNanos, before.systemNanos), delta(readBytes, before.readBytes),
        delta(writtenBytes, before.writtenBytes), delta(gcCount, before.gcCount), delta(gcMillis, before.gcMillis),
        delta(jitNanos, before.jitNanos));
  }

  /** The sum of two processes' use (a server of several processes); unknown where either is unknown. */
  public ProcessSample plus(ProcessSample other) {
    return new ProcessSample(sum(cpuNanos, other.cpuNanos), sum(userNanos, other.userNanos),
        sum(systemNanos, other.systemNanos), sum(readBytes, other.readBytes), sum(writtenBytes, other.writtenBytes),
        sum(gcCount, other.gcCount), sum(gcMillis, other.gcMillis), sum(jitNanos, other.jitNanos));
  }

  private static long delta(long after, long before) {
    return after == UNKNOWN || before == UNKNOWN ? UNKNOWN : after - before;
  }

  private static long sum(long a, long b) {
    return a == UNKNOWN || b == UNKNOWN ? UNKNOWN : a + b;
  }

  /** utime and stime, fields 14 and 15; the command name (field 2) may hold spaces, so fields count from its ')'. */
  static long[] cpu(String stat) {
    String[] fields = statFields(stat);
    return new long[] {Long.parseLong(fields[11]) * NANOS_PER_TICK, Long.parseLong(fields[12]) * NANOS_PER_TICK};
  }

  /** starttime, field 22: with the pid, what tells one process from a later one that reuses its pid. */
  private static long startTime(String stat) {
    return Long.parseLong(statFields(stat)[19]);
  }

  /** The fields from 3 (state) on, so field k is at index k - 3. */
  private static String[] statFields(String stat) {
    return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
  }

  /** rchar and wchar; {@code /proc/<pid>/io} of another user's process is unreadable, and then they are unknown. */
  private static long[] io(Path io) {
    long[] values = {UNKNOWN, UNKNOWN};
    String text;
    try {
      text = Files.readString(io, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return values;
    }
    for (String line : text.split("\n")) {
      if (line.startsWith("rchar:")) {
        values[0] = Long.parseLong(line.substring(6).trim());
      } else if (line.startsWith("wchar:")) {
        values[1] = Long.parseLong(line.substring(6).trim());
      }
    }
    return values;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file + " (has the process exited?): " + e.getMessage(), e);
    }
  }
}
