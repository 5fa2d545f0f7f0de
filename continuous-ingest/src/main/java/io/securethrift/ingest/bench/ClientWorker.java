package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.client.IngestClient;
import java.nio.file.Path;

/**
 * The benchmark's client JVM. Arguments: properties file, host, port, and optionally the baseline's properties file
 * and port (see {@link WorkerProtocol#BASELINE}). It answers {@code INGEST} and {@code SAMPLE} (see
 * {@link WorkerProtocol}) over {@link ChildJvm}'s line protocol.
 */
final class ClientWorker {
  private ClientWorker() {}

  public static void main(String[] args) throws Exception {
    try (IngestClient client = client(args[0], args[1], args[2]);
        IngestClient baseline = args.length > 3 ? client(args[3], args[1], args[4]) : null) {
      ChildJvm.serve(command -> answer(WorkerProtocol.baseline(command) ? baseline : client, command));
    }
    System.exit(0);
  }

  private static IngestClient client(String file, String host, String port) throws Exception {
    return new IngestClient(SecurityConfigFiles.read(Path.of(file), "worker configuration"), host,
        Integer.parseInt(port));
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
