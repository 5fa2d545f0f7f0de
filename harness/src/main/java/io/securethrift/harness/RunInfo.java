package io.securethrift.harness;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Where and when a run happened, for its raw data: the commit, the JDK, the cores, and the one-minute load average
 * at start and end (a run on a busy machine shows it there).
 */
public record RunInfo(String commit, String jdk, int cores, double loadAverageStart, double loadAverageEnd,
    Instant started, Duration wallTime) {

  /** Notes the start; {@link Start#finish()} notes the end. */
  public static Start start(String commit) {
    return new Start(commit, loadAverage(), Instant.now(), System.nanoTime());
  }

  /** A run's start, waiting for its end. */
  public record Start(String commit, double loadAverage, Instant started, long nanoTime) {
    public Duration elapsed() {
      return Duration.ofNanos(System.nanoTime() - nanoTime);
    }

    public RunInfo finish() {
      // RunInfo.loadAverage(): this record's own loadAverage() is the value at the start.
      return new RunInfo(commit, System.getProperty("java.vendor") + " " + Runtime.version(),
          Runtime.getRuntime().availableProcessors(), loadAverage, RunInfo.loadAverage(), started, elapsed());
    }
  }

  /**
   * The commit the securethrift launcher was built from, as its build records it in the class path's
   * {@code io/securethrift/cli/securethrift-version.properties}; "unknown" without it (a module's tests, a build
   * without git).
   */
  public static String launcherCommit() {
    Properties p = new Properties();
    try (InputStream in = RunInfo.class.getClassLoader()
        .getResourceAsStream("io/securethrift/cli/securethrift-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
    String commit = p.getProperty("commit", "");
    return commit.isBlank() || commit.startsWith("${") ? "unknown" : commit.trim();
  }

  /** The one-minute load average, or -1 where the platform has none. */
  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** The fields as a JSON object's members. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("commit", commit);
    m.put("jdk", jdk);
    m.put("cores", cores);
    m.put("loadAverageStart", loadAverageStart);
    m.put("loadAverageEnd", loadAverageEnd);
    m.put("started", started.toString());
    m.put("wallSeconds", wallTime.toMillis() / 1000.0);
    return m;
  }
}
