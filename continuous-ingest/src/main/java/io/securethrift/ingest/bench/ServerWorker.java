package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.server.IngestServer;
import io.securethrift.ingest.server.ServerModel;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The benchmark's server JVM: starts an ingest server from a properties file, prints {@code READY port=n}, answers
 * {@code SAMPLE}, {@code VERIFY} and {@code RESET} (see {@link WorkerProtocol}), and stops when its standard input
 * closes. Arguments: properties file, server model ({@link ServerModel#token()}), optional write-ahead log file.
 */
final class ServerWorker {
  private ServerWorker() {}

  public static void main(String[] args) throws Exception {
    ServerModel model = ServerModel.parse("server model", args[1]);
    Path wal = args.length > 2 ? Path.of(args[2]) : null;
    SecurityConfig config = SecurityConfigFiles.read(Path.of(args[0]), "worker configuration");
    try (IngestServer server = IngestServer.start(config, new InetSocketAddress(BenchSecurity.HOST, 0), wal,
        model)) {
      System.out.println(LineRecord.of(WorkerProtocol.READY).with("port", server.port()).encode());
      System.out.flush();
      ChildJvm.serve(command -> answer(server, command));
    }
    System.exit(0);
  }

  private static LineRecord answer(IngestServer server, LineRecord command) throws Exception {
    switch (command.kind()) {
      case WorkerProtocol.SAMPLE:
        return WorkerProtocol.gc();
      case WorkerProtocol.VERIFY:
        return WorkerProtocol.verified(server.verify(), server.received());
      case WorkerProtocol.RESET:
        server.reset();
        // The last iteration's table is garbage now: collected here, outside the measured part, every iteration
        // starts from the same empty heap instead of paying for some of its predecessor's garbage at random.
        System.gc();
        return LineRecord.of(WorkerProtocol.OK);
      default:
        throw new IllegalArgumentException("unknown command " + command.kind());
    }
  }
}
