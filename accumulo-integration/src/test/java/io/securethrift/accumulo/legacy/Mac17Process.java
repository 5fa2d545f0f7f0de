package io.securethrift.accumulo.legacy;

import io.securethrift.kdc.Directories;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An Accumulo 1.7 MiniAccumuloCluster in a child JVM: {@code src/test/legacy/Mac17.java} run by the JDK's source
 * launcher on the 1.7 class path the build copied to {@code target/accumulo-1.7}. Accumulo 1.7 needs libthrift 0.9.1,
 * which cannot share a JVM with securethrift. {@link #close()} closes the child's standard input (it then stops the
 * cluster), kills it if it does not exit, and deletes the cluster directory.
 */
final class Mac17Process implements AutoCloseable {
  static final Path CLASS_PATH_DIR = Path.of("target/accumulo-1.7").toAbsolutePath();
  private static final Path LAUNCHER = Path.of("src/test/legacy/Mac17.java").toAbsolutePath();
  private static final long STOP_SECONDS = 60;

  private final Process process;
  private final Path dir;
  private final Map<String, String> answers;

  private Mac17Process(Process process, Path dir, Map<String, String> answers) {
    this.process = process;
    this.dir = dir;
    this.answers = answers;
  }

  /**
   * Starts a cluster and waits for its {@code READY} line.
   *
   * @param settings the launcher's {@code key=value} settings (see Mac17.java)
   * @param jvmOptions options for the launcher and every server JVM, through {@code JDK_JAVA_OPTIONS}
   */
  static Mac17Process start(List<String> settings, String jvmOptions) throws IOException {
    Path dir = Files.createTempDirectory("securethrift-mac17-");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", CLASS_PATH_DIR + "/*", LAUNCHER.toString(), dir.resolve("cluster").toString()));
    command.addAll(settings);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // MAC 1.7 passes CMS flags JDK 17 no longer knows; every java it starts reads this variable.
    builder.environment().put("JDK_JAVA_OPTIONS", "-XX:+IgnoreUnrecognizedVMOptions " + jvmOptions);
    Process process = builder.start();
    Map<String, String> answers = new HashMap<>();
    List<String> output = new ArrayList<>();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        output.add(line);
        int space = line.indexOf(' ');
        if (space > 0 && line.substring(0, space).matches("[A-Z_]+")) {
          answers.put(line.substring(0, space), line.substring(space + 1));
        }
      }
      if (line == null) {
        throw new IOException("Accumulo 1.7 MiniAccumuloCluster exited before it was ready:\n"
            + String.join("\n", output.subList(Math.max(0, output.size() - 40), output.size())));
      }
      // Drain the rest so the child never blocks on a full pipe.
      Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "mac17-output");
      drain.setDaemon(true);
      drain.start();
      return new Mac17Process(process, dir, answers);
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      Directories.deleteRecursively(dir);
      throw e;
    }
  }

  /** The tablet server's address as it registered in ZooKeeper, {@code host:port}. */
  String tabletServer() {
    return answers.get("TSERVER");
  }

  String instanceId() {
    return answers.get("INSTANCE");
  }

  /** The {@code client.conf} MAC wrote for its clients. */
  Path clientConf() {
    return Path.of(answers.get("CLIENT_CONF"));
  }

  /** The {@code accumulo-site.xml} the servers run with. */
  Path siteXml() {
    return Path.of(answers.get("SITE"));
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
}
