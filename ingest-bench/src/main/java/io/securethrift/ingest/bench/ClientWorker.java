package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.bench.IngestBackend.TurnAccount;
import io.securethrift.ingest.client.Connector;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.LibthriftSaslConnector;
import io.securethrift.ingest.client.RetryPolicy;
import java.nio.file.Path;

/**
 * The benchmark's client JVM. Arguments: properties file, {@link ServerWorker#SECURETHRIFT} or
 * {@link ServerWorker#LIBTHRIFT_SASL} (the secured client's transports), host, port, and optionally the baseline's
 * properties file and port (see {@link WorkerProtocol#BASELINE}). It answers {@code INGEST} (for one connection, or for
 * both taking turns) and {@code SAMPLE} (see {@link WorkerProtocol}) over {@link ChildJvm}'s line protocol.
 */
final class ClientWorker {
  private ClientWorker() {}

  public static void main(String[] args) throws Exception {
    boolean libthrift = args[1].equals(ServerWorker.LIBTHRIFT_SASL);
    try (IngestClient client = client(args[0], libthrift, args[2], args[3]);
        IngestClient baseline = args.length > 4 ? client(args[4], false, args[2], args[5]) : null) {
      ChildJvm.serve(command -> WorkerProtocol.inTurns(command) ? inTurns(client, baseline, command)
          : answer(WorkerProtocol.baseline(command) ? baseline : client, command));
    }
    System.exit(0);
  }

  private static IngestClient client(String file, boolean libthrift, String host, String port) throws Exception {
    SecurityConfig config = SecurityConfigFiles.read(Path.of(file), "worker configuration");
    return new IngestClient(libthrift ? new LibthriftSaslConnector(config) : Connector.of(config), host,
        Integer.parseInt(port), RetryPolicy.DEFAULT);
  }

  /** Both connections' ingests taking turns (see {@link TakingTurns}). */
  private static LineRecord inTurns(IngestClient client, IngestClient baseline, LineRecord command)
      throws Exception {
    boolean baselineFirst = WorkerProtocol.baselineFirst(command);
    TurnAccount[] sides = new TakingTurns(baselineFirst ? baseline : client, baselineFirst ? client : baseline,
        WorkerProtocol.turnEntries(command), WorkerProtocol.serverPid(command)).run(WorkerProtocol.options(command));
    return WorkerProtocol.turns(sides[baselineFirst ? 1 : 0], sides[baselineFirst ? 0 : 1]);
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
