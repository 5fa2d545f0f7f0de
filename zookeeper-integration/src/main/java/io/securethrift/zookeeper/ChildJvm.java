package io.securethrift.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java process started on this JVM's class path, for the servers of {@link LocalEnsemble} and the benchmark's
 * clients. Separate JVMs because a ZooKeeper server keeps its configuration in system properties and static state
 * for its whole life, and because {@link ConscryptDefaultTls} can only be chosen when a JVM starts.
 *
 * <p>The child's standard error (and standard output, unless piped) goes to a log file; it inherits this JVM's
 * {@code java.security.krb5.conf}, so a child sees the same KDC. {@link #close()} kills it.
 */
public final class ChildJvm implements AutoCloseable {
  private static final String KRB5_CONF = "java.security.krb5.conf";

  private final Process process;
  private final Path log;

  private ChildJvm(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code mainClass} with the given JVM options and arguments.
   *
   * @param pipeStdout whether the caller reads the child's standard output (through {@link #process()}) instead of
   *     it going to the log
   */
  public static ChildJvm start(Class<?> mainClass, List<String> jvmOptions, List<String> args, Path log,
      boolean pipeStdout) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    String krb5 = System.getProperty(KRB5_CONF);
    if (krb5 != null) {
      command.add("-D" + KRB5_CONF + "=" + krb5);
    }
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.addAll(jvmOptions);
    command.add(mainClass.getName());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
    if (!pipeStdout) {
      builder.redirectErrorStream(true).redirectOutput(log.toFile());
    }
    try {
      return new ChildJvm(builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + mainClass.getName(), e);
    }
  }

  public Process process() {
    return process;
  }

  /** The last {@code lines} lines of the child's log, to explain a failure. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Kills the child and waits for it to be gone. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
