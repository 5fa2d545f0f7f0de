package io.securethrift.ingest.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM the benchmark talks to by lines: a command on its standard input, one answer line on its standard
 * output. Server and client run in their own JVMs so their CPU time can be told apart. A worker exits when its input
 * closes, so it cannot outlive the benchmark; {@link #close()} also destroys it if it does not.
 */
final class ChildJvm implements AutoCloseable {
  private final String name;
  private final Process process;
  private final BufferedReader out;
  private final Writer in;

  private ChildJvm(String name, Process process) {
    this.name = name;
    this.process = process;
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  /** Starts {@code mainClass} on this JVM's class path, with the given krb5.conf and arguments. */
  static ChildJvm start(String name, Class<?> mainClass, Path krb5Conf, String heap, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-Djava.security.krb5.conf=" + krb5Conf);
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    return new ChildJvm(name, process);
  }

  /** Sends one command line and returns the answer line; an {@code ERROR} answer becomes an exception. */
  String call(String command) throws IOException {
    in.write(command);
    in.write('\n');
    in.flush();
    return answer();
  }

  /** Reads the next answer line (for the line a worker prints when it is ready). */
  String answer() throws IOException {
    String line = out.readLine();
    if (line == null) {
      throw new IOException(name + " exited with code " + exitCode() + " (its error output is above)");
    }
    if (line.startsWith(Worker.ERROR)) {
      throw new IOException(name + ": " + line.substring(Worker.ERROR.length()).trim());
    }
    return line;
  }

  private String exitCode() {
    try {
      return process.waitFor(10, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "(still running)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(unknown)";
    }
  }

  @Override
  public void close() {
    try {
      in.close();
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
