package io.securethrift.cli;

import io.securethrift.core.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code bin/securethrift <command> [options]}: one entry point for every command the modules offer. Bad input ends
 * with a one-line message naming the setting and exit code 2; other failures with their message and exit code 1.
 */
@Command(name = "securethrift", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Secure Thrift transports for Accumulo and ZooKeeper, and the benchmarks that measure them.",
    subcommands = {IngestBenchCommand.class, IngestServerCommand.class, IngestClientCommand.class,
        TlsBenchCommand.class, SaslBenchCommand.class, ServerBenchCommand.class, ZkBenchCommand.class,
        PeerBenchCommand.class, KdcCommand.class, CertsCommand.class})
public final class Main implements Runnable {
  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof ConfigException) {
        commandLine.getErr().println("securethrift " + commandLine.getCommandName() + ": " + e.getMessage());
        return 2;
      }
      commandLine.getErr().println("securethrift " + commandLine.getCommandName() + " failed: " + e);
      if (Boolean.getBoolean("securethrift.debug")) {
        e.printStackTrace(commandLine.getErr());
      } else {
        commandLine.getErr().println("(set SECURETHRIFT_JAVA_OPTS=-Dsecurethrift.debug=true for the stack trace)");
      }
      return 1;
    });
    return cli;
  }
}
