package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The benchmark's client JVM. Arguments: properties file, host, port. Commands:
 * {@code INGEST entries flushInterval batchMemory latencyMs threads seed} answers
 * {@code RESULT entries bytes elapsedNanos clientCpuNanos serverCpuNanos}; {@code VERIFY} answers
 * {@code VERIFIED referenced unreferenced undefined corrupt}; {@code RESET} answers {@code OK}.
 */
final class ClientWorker {
  private ClientWorker() {}

  public static void main(String[] args) throws Exception {
    try (IngestClient client = new IngestClient(SecurityConfigFiles.read(Path.of(args[0]), "worker configuration"),
        args[1], Integer.parseInt(args[2]))) {
      Worker.serve(words -> switch (words[0]) {
        case "INGEST" -> {
          IngestResult r = client.ingest(new IngestOptions(Long.parseLong(words[1]), Integer.parseInt(words[2]),
              Long.parseLong(words[3]), Duration.ofMillis(Long.parseLong(words[4])), Integer.parseInt(words[5]),
              Long.parseLong(words[6])));
          yield "RESULT " + r.entries() + " " + r.bytes() + " " + r.elapsedNanos() + " " + r.clientCpuNanos() + " "
              + r.serverCpuNanos();
        }
        case "VERIFY" -> {
          VerifyResult v = client.verify();
          yield "VERIFIED " + v.referenced() + " " + v.unreferenced() + " " + v.undefined() + " " + v.corrupt()
              + (v.undefinedExamples().isEmpty() ? "" : " undefined-rows=" + String.join(",", v.undefinedExamples()));
        }
        case "RESET" -> {
          client.reset();
          yield "OK";
        }
        default -> throw new IllegalArgumentException("unknown command " + words[0]);
      });
    }
    System.exit(0);
  }
}
