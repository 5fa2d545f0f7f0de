package io.securethrift.core.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The one launcher of child JVMs for tests and the benchmark harnesses: a Java process on this JVM's class path (or
 * another), for ZooKeeper servers (which keep their configuration in JVM-wide state), for clients that must choose
 * their TLS provider when the JVM starts, for benchmark workers whose CPU time is measured apart, and for programs
 * that run the library on the module path.
 *
 * <p>A child inherits this JVM's {@code java.security.krb5.conf} unless another is given, so it sees the same KDC.
 * Its standard error (and standard output, unless the parent {@linkplain Builder#talk() talks} to it) goes to a log
 * file if one is given, else to this JVM's standard error.
 *
 * <p>A child that talks answers each command line on its standard input with one {@link LineRecord} on its standard
 * output ({@link #serve} is the child's side); it exits when its input closes, so it cannot outlive the parent.
 * {@link #close()} closes the input and, for a child that does not talk, also kills it.
 */
public final class ChildJvm implements AutoCloseable {
  private static final String KRB5_CONF = "java.security.krb5.conf";

  private final String name;
  private final Process process;
  private final Path log;
  private final boolean talks;
  private final BufferedReader out;
  private final Writer in;

  private ChildJvm(String name, Process process, Path log, boolean talks) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.talks = talks;
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  public static Builder builder(Class<?> mainClass) {
    return new Builder(mainClass);
  }

  /** How to start one child JVM. */
  public static final class Builder {
    private final Class<?> mainClass;
    private String name;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private Path javaHome = Path.of(System.getProperty("java.home"));
    private String classPath = System.getProperty("java.class.path");
    private Path krb5Conf;
    private Path log;
    private boolean talk;

    private Builder(Class<?> mainClass) {
      this.mainClass = mainClass;
      this.name = mainClass.getSimpleName();
    }

    /** The name failures are reported under (default: the main class's simple name). */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder jvmOptions(List<String> options) {
      jvmOptions.addAll(options);
      return this;
    }

    public Builder args(List<String> arguments) {
      args.addAll(arguments);
      return this;
    }

    /**
     * Starts the child without these JDK modules, as a jlink'd image built without them would run: {@code
     * --limit-modules} with every other module of this runtime, less those that require an excluded one (which would
     * bring it back).
     */
    public Builder withoutModules(String... modules) {
      Set<String> excluded = new HashSet<>(Arrays.asList(modules));
      Set<ModuleReference> system = ModuleFinder.ofSystem().findAll();
      for (boolean grew = true; grew; ) {
        grew = false;
        for (ModuleReference module : system) {
          ModuleDescriptor descriptor = module.descriptor();
          if (!excluded.contains(descriptor.name())
              && descriptor.requires().stream().anyMatch(r -> excluded.contains(r.name()))) {
            excluded.add(descriptor.name());
            grew = true;
          }
        }
      }
      jvmOptions.add("--limit-modules");
      jvmOptions.add(system.stream().map(m -> m.descriptor().name()).filter(n -> !excluded.contains(n)).sorted()
          .collect(Collectors.joining(",")));
      return this;
    }

    /** The Java runtime the child runs on (default: this JVM's); it must run this JVM's class files. */
    public Builder javaHome(Path home) {
      this.javaHome = home;
      return this;
    }

    /**
     * The child's class path (default: this JVM's), for a child that takes its other classes from {@code
     * --module-path} in its {@link #jvmOptions}.
     */
    public Builder classPath(String path) {
      this.classPath = path;
      return this;
    }

    /** The child's krb5.conf (default: this JVM's {@code java.security.krb5.conf}, if set). */
    public Builder krb5Conf(Path file) {
      this.krb5Conf = file;
      return this;
    }

    /** Where the child's standard error (and standard output, unless talked to) goes, instead of this JVM's. */
    public Builder log(Path file) {
      this.log = file;
      return this;
    }

    /** The parent reads the child's standard output: {@link #call}, {@link #answer} or {@link #process()}. */
    public Builder talk() {
      this.talk = true;
      return this;
    }

    public ChildJvm start() {
      List<String> command = new ArrayList<>();
      command.add(javaHome.resolve("bin").resolve("java").toString());
      command.add("-cp");
      command.add(classPath);
      String krb5 = krb5Conf != null ? krb5Conf.toString() : System.getProperty(KRB5_CONF);
      if (krb5 != null) {
        command.add("-D" + KRB5_CONF + "=" + krb5);
      }
      command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
      command.addAll(jvmOptions);
      command.add(mainClass.getName());
      command.addAll(args);
      ProcessBuilder builder = new ProcessBuilder(command);
      if (log == null) {
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        if (!talk) {
          builder.redirectOutput(ProcessBuilder.Redirect.INHERIT);
        }
      } else if (talk) {
        builder.redirectError(log.toFile());
      } else {
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
      }
      try {
        return new ChildJvm(name, builder.start(), log, talk);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + name + " (" + mainClass.getName() + ")", e);
      }
    }
  }

  public Process process() {
    return process;
  }

  /** Sends one command and returns the answer; an {@code ERROR} answer becomes an exception. */
  public LineRecord call(LineRecord command) throws IOException {
    try {
      in.write(command.encode());
      in.write('\n');
      in.flush();
    } catch (IOException e) {
      // The JDK closes a child's input once the child has exited ("Stream closed"), which says nothing of why.
      throw new IOException("cannot send " + command.kind() + " to " + name + ": it " + exited(), e);
    }
    return answer();
  }

  /** Reads the next answer (for the record a child prints when it is ready). */
  public LineRecord answer() throws IOException {
    String line = out.readLine();
    if (line == null) {
      throw new IOException(name + " " + exited() + (log == null ? " (its error output is above)"
          : ":\n" + logTail(30)));
    }
    LineRecord answer = LineRecord.parse(line);
    if (answer.kind().equals(LineRecord.ERROR)) {
      throw new IOException(name + ": " + answer.get("message"));
    }
    return answer;
  }

  /** The last {@code lines} lines of the child's log, to explain a failure. */
  public String logTail(int lines) {
    if (log == null) {
      return "(no log file: the error output went to this JVM's)";
    }
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** How the child ended, for a failure message: its exit code, and what a signal's code most likely means. */
  private String exited() {
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        return "stopped answering (still running)";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "exited (code unknown)";
    }
    int code = process.exitValue();
    return "exited with code " + code + (code == 128 + 9 ? " (SIGKILL: most likely the kernel's out-of-memory killer;"
        + " see dmesg, and run fewer JVMs at once)" : code > 128 ? " (signal " + (code - 128) + ")" : "");
  }

  /** Closes the child's input (a talking child exits then) or kills it, and waits for it to be gone. */
  @Override
  public void close() {
    try {
      try {
        in.close();
      } catch (IOException ignored) {
        // The child is gone already, or going; the wait below decides.
      }
      if (!talks) {
        process.destroy();
      }
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The child's side of the line protocol: answers each command on standard input with {@code handler}'s record
   * until the input closes; a failure answers an {@code ERROR} record with the message.
   */
  public static void serve(Handler handler) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      LineRecord answer;
      try {
        answer = handler.handle(LineRecord.parse(line));
      } catch (Exception e) {
        answer = LineRecord.of(LineRecord.ERROR).with("message", String.valueOf(e.getMessage()));
      }
      out.println(answer.encode());
    }
  }

  /** Answers one command. */
  @FunctionalInterface
  public interface Handler {
    LineRecord handle(LineRecord command) throws Exception;
  }
}
