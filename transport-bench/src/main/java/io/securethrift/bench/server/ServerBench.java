package io.securethrift.bench.server;

import io.securethrift.bench.Payloads;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.harness.BenchMode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.thrift.TException;

/**
 * {@code server-bench}: the non-blocking server against libthrift's {@code TThreadPoolServer} (64 workers, and
 * uncapped) on the same machine, each server in its own JVM with the same fixed maximum heap, the clients in this
 * one. Per mode and server one server JVM runs, in order: idle connections (scenario 1), closed-loop calls at many and
 * at few connections (3 and 4), the pre-authentication flood (2) and peers that never read their replies (5, in mode
 * none); then TLS handshake rates beside {@code openssl} (6). Every comparison is a ratio of figures measured in this
 * one run.
 */
public final class ServerBench {
  private ServerBench() {}

  /**
   * Runs the benchmark, printing progress to {@code progress}; the caller prints the report or {@linkplain
   * ServerBenchReport#write writes} it.
   */
  public static ServerBenchReport run(ServerBenchOptions o, PrintStream progress) throws Exception {
    Progress step = new Progress(progress);
    Path work = Files.createTempDirectory("server-bench-");
    try {
      BenchMaterial material = BenchMaterial.create(work);
      List<Row> rows = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      for (BenchMode mode : o.modes) {
        try (ClientTransportFactory clients = ClientTransportFactory.create(material.client(mode, o.engine))) {
          for (ServerKind kind : o.servers) {
            step.say(mode + " on " + kind);
            for (String scenario : scenarios(o, mode, kind)) {
              // A fresh server JVM for every scenario, so each starts from the same state: the uncapped thread-pool
              // server can run out of heap holding thousands of TLS connections, and a server that lost its accepting
              // thread that way would leave every later connection of the next scenario to wait out its connect
              // timeout.
              try (ServerUnderTest server = ServerUnderTest.start(material, mode, o.engine, kind, o,
                  work.resolve(mode + "-" + kind + "-" + scenario + ".log"))) {
                step.say("  warm-up");
                warmUp(server, clients, o);
                step.say("  " + scenario);
                rows.addAll(measure(scenario, o, server, clients));
              }
            }
          }
        }
      }
      if (o.scenarios.contains(HandshakeRates.SCENARIO)) {
        if (HandshakeRates.available(o.openssl)) {
          step.say("TLS handshakes beside openssl");
          rows.addAll(HandshakeRates.measure(o, work));
        } else {
          notes.add("handshakes: '" + o.openssl + "' does not run here, so TLS handshake rates were not measured"
              + " (--openssl names the command)");
        }
      }
      step.say("done");
      return new ServerBenchReport(rows, Goals.assess(rows, o), notes, o.describe());
    } finally {
      deleteTree(work);
    }
  }

  /** The scenarios that apply to a mode on a server, in the order they run. */
  private static List<String> scenarios(ServerBenchOptions o, BenchMode mode, ServerKind kind) {
    List<String> names = new ArrayList<>();
    if (kind == ServerKind.NONBLOCKING_INLINE) {
      // Only where calls run does it differ from the non-blocking server.
      if (o.scenarios.contains(ClosedLoop.SCENARIO)) {
        names.add(ClosedLoop.SCENARIO);
      }
      return names;
    }
    if (o.scenarios.contains(IdleConnections.SCENARIO) && ServerModes.handshakes(mode)) {
      names.add(IdleConnections.SCENARIO);
    }
    if (o.scenarios.contains(ClosedLoop.SCENARIO)) {
      names.add(ClosedLoop.SCENARIO);
    }
    // The flood attacks what comes before authentication, the same for every QOP: measured in tls and sasl-auth.
    if (o.scenarios.contains(PreAuthFlood.SCENARIO)
        && (mode.tls() || mode.sasl() && mode.qop() == QualityOfProtection.AUTH)) {
      names.add(PreAuthFlood.SCENARIO);
    }
    // Only a peer that needs no authentication can call at all: mode none.
    if (o.scenarios.contains(StalledReaders.SCENARIO) && !mode.tls() && !mode.sasl()) {
      names.add(StalledReaders.SCENARIO);
    }
    return names;
  }

  private static List<Row> measure(String scenario, ServerBenchOptions o, ServerUnderTest server,
      ClientTransportFactory clients) throws Exception {
    switch (scenario) {
      case IdleConnections.SCENARIO:
        return IdleConnections.measure(server, clients, o.idleLevels);
      case ClosedLoop.SCENARIO:
        List<Row> rows = new ArrayList<>(ClosedLoop.measure(server, clients, o.connections, o.payloads, o.warmUp,
            o.window));
        // At few connections both thread-pool servers run a thread per connection: one of them says it all.
        if (server.kind != ServerKind.THREADPOOL) {
          rows.addAll(ClosedLoop.measure(server, clients, o.fewConnections, o.payloads, o.warmUp, o.window));
        }
        return rows;
      case PreAuthFlood.SCENARIO:
        return List.of(PreAuthFlood.measure(server, clients, o.floodPeers, o.floodClients, o.warmUp.plus(o.window)));
      case StalledReaders.SCENARIO:
        return List.of(StalledReaders.measure(server, clients, o.stalledPeers, o.warmUp.plus(o.window)));
      default:
        throw new IllegalArgumentException("unknown scenario " + scenario);
    }
  }

  /**
   * Connections and calls of every payload size for the warm-up time before anything is measured, so that the
   * server JVM's compiler has seen handshakes and calls: a cold JVM takes tens of milliseconds over its first ones.
   */
  private static void warmUp(ServerUnderTest server, ClientTransportFactory clients, ServerBenchOptions o)
      throws TException {
    long end = System.nanoTime() + o.warmUp.toNanos();
    do {
      try (SecuredTransport transport = clients.open(BenchMaterial.HOST, server.port())) {
        EchoService.Client client = EchoServer.client(transport);
        for (int size : o.payloads) {
          client.echo(Payloads.random(size));
        }
      }
    } while (System.nanoTime() < end);
  }

  /** Progress lines with the time since the run started, so a slow step shows itself. */
  private static final class Progress {
    private final PrintStream out;
    private final long started = System.nanoTime();

    Progress(PrintStream out) {
      this.out = out;
    }

    void say(String what) {
      out.printf("server-bench: %5.1f s  %s%n", (System.nanoTime() - started) / 1e9, what);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the benchmark's work directory " + dir, e);
    }
  }
}
