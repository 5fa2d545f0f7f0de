package io.securethrift.accumulo.otherjvm;

import io.securethrift.testkit.Directories;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A MiniAccumuloCluster of another Accumulo line in a child JVM, on that line's own class path, which the build copied
 * to {@code target/accumulo-<line>/lib} together with the line's launcher ({@code src/test/other-jvm}) compiled into
 * {@code target/accumulo-<line>/classes}. Accumulo 1.7 needs libthrift 0.9.1 and 3.0 clashes with the 2.1 jars of
 * this JVM, so neither can run in it. {@link #close()} closes the child's standard input (it then stops the cluster),
 * kills it if it does not exit, and deletes the cluster directory.
 */
final class OtherJvmMac implements AutoCloseable {
  private static final long STOP_SECONDS = 60;
  private static final int OUTPUT_TAIL_LINES = 40;
  /**
   * Options for the launcher and every JVM it starts (through {@code JDK_JAVA_OPTIONS}, which each reads). MAC 1.7
   * passes CMS flags JDK 17 no longer knows. The rest make these short-lived JVMs start 2-3 times faster on a small,
   * busy machine (measured: 12-19 s instead of 29-47 s for an Accumulo 3.0 cluster): the C1 compiler only, the serial
   * collector, and a small initial heap, which MAC 3.0 would otherwise pre-touch in full.
   */
  private static final String SERVER_JVM_OPTIONS =
      "-XX:+IgnoreUnrecognizedVMOptions -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms16m";
  /** An answer line: {@code KEY value} or {@code KEY.<name> value}. */
  private static final Pattern ANSWER = Pattern.compile("[A-Z_]+(\\.[a-z0-9-]+)?");

  /** An Accumulo line the build resolves, and its launcher's main class. */
  enum Line {
    ACCUMULO_1_7("1.7", "Mac17"),
    ACCUMULO_3_0("3.0", "Mac30");

    private final String version;
    private final String launcher;

    Line(String version, String launcher) {
      this.version = version;
      this.launcher = launcher;
    }

    private Path dir() {
      return Path.of("target", "accumulo-" + version).toAbsolutePath();
    }
  }

  private final Process process;
  private final Path dir;
  private final Map<String, String> answers;
  private final Duration startTime;

  private OtherJvmMac(Process process, Path dir, Map<String, String> answers, Duration startTime) {
    this.process = process;
    this.dir = dir;
    this.answers = answers;
    this.startTime = startTime;
  }

  /**
   * Starts a cluster and waits for its {@code READY} line.
   *
   * @param settings the launcher's {@code key=value} settings (MacLauncher.java and the line's launcher)
   * @param classPath more class path entries for the launcher and, through it, every server
   * @param jvmOptions more options for the launcher and every server JVM
   */
  static OtherJvmMac start(Line accumulo, List<String> settings, List<Path> classPath, String jvmOptions)
      throws IOException {
    List<String> entries = new ArrayList<>(List.of(accumulo.dir().resolve("classes").toString(),
        accumulo.dir().resolve("lib") + File.separator + "*"));
    classPath.forEach(p -> entries.add(p.toString()));
    Path dir = Files.createTempDirectory("securethrift-mac-" + accumulo.version + "-");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, entries), accumulo.launcher, dir.resolve("cluster").toString()));
    command.addAll(settings);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("JDK_JAVA_OPTIONS", String.join(" ", SERVER_JVM_OPTIONS, jvmOptions));
    long begin = System.nanoTime();
    Process process = builder.start();
    Map<String, String> answers = new HashMap<>();
    List<String> output = new ArrayList<>();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        output.add(line);
        int space = line.indexOf(' ');
        if (space > 0 && ANSWER.matcher(line.substring(0, space)).matches()) {
          answers.put(line.substring(0, space), line.substring(space + 1));
        }
      }
      if (line == null) {
        throw new IOException("Accumulo " + accumulo.version + " MiniAccumuloCluster exited before it was ready:\n"
            + String.join("\n", output.subList(Math.max(0, output.size() - OUTPUT_TAIL_LINES), output.size()))
            + logTails(dir.resolve("cluster").resolve("logs")));
      }
      Duration started = Duration.ofNanos(System.nanoTime() - begin);
      // Drain the rest so the child never blocks on a full pipe.
      Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "mac-" + accumulo.version + "-output");
      drain.setDaemon(true);
      drain.start();
      return new OtherJvmMac(process, dir, answers, started);
    } catch (IOException | RuntimeException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Directories.deleteRecursively(dir);
      throw e;
    }
  }

  /** From launching the child JVM to its {@code READY} line. */
  Duration startTime() {
    return startTime;
  }

  /** An answer of the launcher, such as {@code TSERVER} or {@code SITE.<name>}. */
  String answer(String key) {
    String value = answers.get(key);
    if (value == null) {
      throw new IllegalStateException("the launcher gave no " + key + " (it answered " + answers.keySet() + ")");
    }
    return value;
  }

  /** The (first) tablet server's address as it registered in ZooKeeper, {@code host:port}. */
  String tabletServer() {
    return answer("TSERVER");
  }

  String instanceId() {
    return answer("INSTANCE");
  }

  /** A file the launcher named, such as {@code SITE} or {@code CLIENT_CONF}. */
  Path file(String key) {
    return Path.of(answer(key));
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
      }
    } finally {
      Directories.deleteRecursively(dir);
    }
  }

  /** The cluster directory is deleted on failure, so the message keeps the end of each server's output. */
  private static String logTails(Path logs) throws IOException {
    StringBuilder text = new StringBuilder();
    if (Files.isDirectory(logs)) {
      List<Path> files = new ArrayList<>();
      try (var list = Files.list(logs)) {
        list.sorted().forEach(files::add);
      }
      for (Path f : files) {
        List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
        text.append("\n== ").append(f.getFileName()).append(" (last ").append(OUTPUT_TAIL_LINES).append(" lines)\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - OUTPUT_TAIL_LINES), lines.size())));
      }
    }
    return text.toString();
  }
}
