package io.securethrift.core.testing;

import io.securethrift.core.internal.RuntimeModules;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An Accumulo 1.7-era Thrift peer in a child JVM: libthrift 0.9.1, which cannot share a class path with the libthrift
 * securethrift is built with. The peer is the single source file {@code legacy/LegacyPeer.java} next to this class
 * (a resource of the test jar; its javadoc lists the commands), run by the JDK's source launcher on the jars the build
 * copied to the module's {@code target/legacy-thrift}: the parent pom's {@code legacy-thrift} execution of
 * maven-dependency-plugin, which a module turns on with {@code securethrift.legacy.thrift.skip=false}.
 *
 * <p>The peer runs on this JVM's runtime when it has the source launcher's compiler ({@code jdk.compiler}) and the
 * JDK's GSSAPI SASL mechanism; the trimmed runtimes bin/run-tests also runs library tests on lack both, and there the
 * peer runs on the JDK that runs Maven ({@link GssapiSasl#javaHomeWith}).
 *
 * <p>Its standard output and error are read line by line into a queue as they come, so the peer never blocks on a full
 * pipe; {@link #awaitLine} takes lines from it. {@link #close()} kills the peer and deletes its copy of the source.
 */
public final class LegacyThriftPeer implements AutoCloseable {
  /** How long {@link #awaitLine(String)} waits for a line: a JVM start, a compile and a Kerberos login, with margin. */
  public static final Duration LINE_TIMEOUT = Duration.ofSeconds(60);
  private static final Path CLASS_PATH = Path.of("target", "legacy-thrift");
  private static final String SOURCE = "legacy/LegacyPeer.java";

  private final Process process;
  private final Path sourceDir;
  /** The peer's output lines as they come; empty for its end. */
  private final BlockingQueue<Optional<String>> lines = new LinkedBlockingQueue<>();
  /** Every line the peer printed so far, for failure messages. */
  private final List<String> transcript = new CopyOnWriteArrayList<>();
  private boolean ended;

  private LegacyThriftPeer(Process process, Path sourceDir) {
    this.process = process;
    this.sourceDir = sourceDir;
    Thread reader = new Thread(this::readOutput, "legacy-peer-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts the peer with these arguments (see LegacyPeer's javadoc), without Kerberos. */
  public static LegacyThriftPeer start(List<String> args) {
    return start(Optional.empty(), args);
  }

  /** Starts the peer with these arguments, seeing the KDC of {@code krb5Conf}. */
  public static LegacyThriftPeer start(Path krb5Conf, List<String> args) {
    return start(Optional.of(krb5Conf), args);
  }

  private static LegacyThriftPeer start(Optional<Path> krb5Conf, List<String> args) {
    if (!Files.isDirectory(CLASS_PATH)) {
      throw new IllegalStateException(CLASS_PATH.toAbsolutePath() + " is missing: run through Maven, whose "
          + "legacy-thrift execution copies libthrift 0.9.1 there in modules that set securethrift.legacy.thrift.skip"
          + " to false");
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("legacy-peer");
      Path source = dir.resolve("LegacyPeer.java");
      try (InputStream in = LegacyThriftPeer.class.getResourceAsStream(SOURCE)) {
        if (in == null) {
          throw new IllegalStateException(SOURCE + " is not next to " + LegacyThriftPeer.class.getName());
        }
        Files.copy(in, source);
      }
      List<String> command = new ArrayList<>(List.of(java().toString()));
      krb5Conf.ifPresent(conf -> command.add("-Djava.security.krb5.conf=" + conf));
      command.addAll(List.of("-cp", CLASS_PATH.toAbsolutePath() + "/*", source.toString()));
      command.addAll(args);
      return new LegacyThriftPeer(new ProcessBuilder(command).redirectErrorStream(true).start(), dir);
    } catch (IOException e) {
      deleteQuietly(dir);
      throw new UncheckedIOException("cannot start the legacy Thrift peer", e);
    }
  }

  /**
   * This runtime's java if it can run a source file and has the JDK's GSSAPI SASL mechanism (libthrift 0.9.1's only
   * one), else the JDK's that runs Maven.
   */
  private static Path java() {
    return GssapiSasl.javaHomeWith("jdk.compiler", RuntimeModules.GSSAPI_SASL).resolve("bin").resolve("java");
  }

  private void readOutput() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        transcript.add(line);
        lines.add(Optional.of(line));
      }
    } catch (IOException closed) {
      // close() killed the peer; the output ends here.
    } finally {
      lines.add(Optional.empty());
    }
  }

  public Process process() {
    return process;
  }

  /**
   * Reads the peer's output until a line starting with {@code prefix} and returns it; fails, with everything the
   * peer printed, if it ends its output first or prints no such line within {@link #LINE_TIMEOUT}.
   */
  public String awaitLine(String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + LINE_TIMEOUT.toNanos();
    while (!ended) {
      Optional<String> next = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (next == null) {
        throw new AssertionError("the legacy peer printed no line starting with \"" + prefix + "\" within "
            + LINE_TIMEOUT + ":\n" + output());
      }
      if (next.isEmpty()) {
        ended = true;
        break;
      }
      String line = next.get();
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    throw new AssertionError("the legacy peer exited (" + exitCode() + ") before printing \"" + prefix + "\":\n"
        + output());
  }

  /** Waits for the peer to exit, at most {@code timeout}, and returns its exit status; fails if it is still running. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("the legacy peer still runs after " + timeout + ":\n" + output());
    }
    return process.exitValue();
  }

  /** Everything the peer printed so far (standard output and error), for failure messages. */
  public String output() {
    return String.join("\n", transcript);
  }

  private String exitCode() {
    try {
      return process.waitFor(10, TimeUnit.SECONDS) ? "status " + process.exitValue() : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "status unknown";
    }
  }

  /** Kills the peer if it still runs, waits for it to be gone, and deletes its copy of the source. */
  @Override
  public void close() {
    try {
      process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      deleteQuietly(sourceDir);
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    } catch (IOException ignored) {
      // A temporary directory left behind is harmless.
    }
  }
}
