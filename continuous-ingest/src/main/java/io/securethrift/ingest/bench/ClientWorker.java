package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.client.IngestClient;
import java.nio.file.Path;

/**
 * The benchmark's client JVM. Arguments: properties file, host, port. It answers {@code INGEST} and {@code SAMPLE}
 * (see {@link WorkerProtocol}) over {@link ChildJvm}'s line protocol.
 */
final class ClientWorker {
  private ClientWorker() {}

  public static void main(String[] args) throws Exception {
    try (IngestClient client = new IngestClient(SecurityConfigFiles.read(Path.of(args[0]), "worker configuration"),
        args[1], Integer.parseInt(args[2]))) {
      ChildJvm.serve(command -> answer(client, command));
    }
    System.exit(0);
  }

  private static LineRecord answer(IngestClient client, LineRecord command) throws Exception {
    switch (command.kind()) {
      case WorkerProtocol.INGEST:
        return WorkerProtocol.result(client.ingest(WorkerProtocol.options(command)));
      case WorkerProtocol.SAMPLE:
        return WorkerProtocol.gc();
      default:
        throw new IllegalArgumentException("unknown command " + command.kind());
    }
  }
}
