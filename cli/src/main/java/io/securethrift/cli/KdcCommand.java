package io.securethrift.cli;

import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KerberosIdentity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kdc}: runs an embedded Kerberos KDC in the foreground for manual and cross-process
 * testing, prints where its krb5.conf and keytabs are, and stops when interrupted (Ctrl-C).
 *
 * <p>With {@code --dir} the krb5.conf and keytabs are copied there, so that other processes can be
 * pointed at stable paths; the copies stay after the KDC stops. Without it they live in the KDC's
 * temporary directory, deleted on exit.
 */
@Command(
    name = "kdc",
    mixinStandardHelpOptions = true,
    description = "Run an embedded Kerberos KDC (Apache Kerby, TCP only) until interrupted.")
public final class KdcCommand implements Callable<Integer> {

  /** The last line printed before waiting; scripts and tests wait for it. */
  public static final String READY = "KDC ready; press Ctrl-C to stop.";

  @Spec private CommandSpec spec;

  @Option(names = "--realm", description = "Kerberos realm (default: ${DEFAULT-VALUE}).")
  private String realm = "EXAMPLE.COM";

  @Option(
      names = "--port",
      description = "TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  private int port;

  @Option(
      names = "--principal",
      paramLabel = "NAME",
      description =
          "Principal to create with a keytab, e.g. client or accumulo/localhost; repeatable.")
  private List<String> principals = new ArrayList<>();

  @Option(names = "--dir", description = "Directory to copy krb5.conf and keytabs into.")
  private Path dir;

  @Override
  public Integer call() throws Exception {
    EmbeddedKdc.Builder builder = validatedBuilder();
    PrintWriter out = spec.commandLine().getOut();
    long begin = System.nanoTime();
    EmbeddedKdc kdc = builder.start();
    long startMillis = (System.nanoTime() - begin) / 1_000_000;
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> stop(kdc, stopped), "kdc-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      out.printf("realm: %s%nport: %d%nstarted in: %d ms%n", kdc.realm(), kdc.port(), startMillis);
      out.printf("krb5.conf: %s%n", publish(kdc.krb5Conf()));
      for (String name : principals) {
        KerberosIdentity identity = kdc.principal(name);
        out.printf("keytab %s: %s%n", identity.principal(), publish(identity.keytab()));
      }
      out.println(READY);
      out.flush();
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (stopped.getCount() > 0) {
        Runtime.getRuntime().removeShutdownHook(hook);
        stop(kdc, stopped);
      }
    }
    return 0;
  }

  private EmbeddedKdc.Builder validatedBuilder() {
    EmbeddedKdc.Builder builder = EmbeddedKdc.builder();
    try {
      builder.realm(realm);
    } catch (IllegalArgumentException e) {
      throw usage("--realm: " + e.getMessage());
    }
    try {
      builder.port(port);
    } catch (IllegalArgumentException e) {
      throw usage("--port: " + e.getMessage());
    }
    for (String name : principals) {
      if (name.isBlank() || (name.contains("@") && !name.endsWith("@" + realm))) {
        throw usage("--principal: '" + name + "' is not a principal name in realm " + realm);
      }
    }
    return builder;
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  private Path publish(Path file) throws IOException {
    if (dir == null) {
      return file;
    }
    OwnerOnlyFiles.createDirectories(dir);
    return OwnerOnlyFiles.restrict(Files.copy(file, dir.resolve(file.getFileName()),
        StandardCopyOption.REPLACE_EXISTING)).toAbsolutePath();
  }

  private static void stop(EmbeddedKdc kdc, CountDownLatch stopped) {
    kdc.close();
    stopped.countDown();
  }

  /** Runs the command on its own, for local testing; the launcher registers it as {@code kdc}. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new KdcCommand()).execute(args));
  }
}
