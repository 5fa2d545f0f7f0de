package io.securethrift.cli;

import io.securethrift.ingest.server.IngestServer;
import io.securethrift.ingest.server.ServerModel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ingest-server}: the embedded ingest backend, run by hand on one host. */
@Command(name = "ingest-server", mixinStandardHelpOptions = true,
    description = "Serves the ingest service, secured as the configuration file says, until interrupted.")
final class IngestServerCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, description = "Properties file with securethrift.* keys.")
  Path config;

  @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}).", defaultValue = "0.0.0.0")
  String bind;

  @Option(names = "--port", description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).",
      defaultValue = "9997")
  int port;

  @Option(names = "--server", description = "Server model: nonblocking (netty-server, connections on a few threads)"
      + " or threadpool (libthrift's TThreadPoolServer, a thread per connection) (default: ${DEFAULT-VALUE}).",
      defaultValue = "nonblocking")
  String server;

  @Option(names = "--wal", description = "Write-ahead log file; every batch is appended and synced on flush.")
  Path writeAheadLog;

  @Override
  public Integer call() throws Exception {
    SecurityConfig security = SecurityConfigFiles.read(config, "--config");
    ServerModel model = ServerModel.parse("--server", server);
    if (port != 0 && !free(bind, port)) {
      throw new ConfigException("--port", port + " is already in use on " + bind
          + "; stop what holds it or choose another port");
    }
    try (IngestServer server = IngestServer.start(security, new InetSocketAddress(bind, port), writeAheadLog, model)) {
      System.out.println("ingest server (" + model.token() + ") listening on " + bind + ":" + server.port());
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          server.close();
        } catch (IOException | InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          server.counters().ifPresent(c -> System.out.println("ingest server handshakes: " + c));
        }
      }));
      server.awaitTermination();
    }
    return 0;
  }

  /** Checked before any thread starts, so a busy port is a configuration error, not a half-started server. */
  private static boolean free(String bind, int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(bind, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
