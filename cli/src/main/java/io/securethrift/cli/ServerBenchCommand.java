package io.securethrift.cli;

import io.securethrift.bench.server.ServerBench;
import io.securethrift.bench.server.ServerBenchOptions;
import io.securethrift.bench.server.ServerBenchReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code server-bench}: the non-blocking server against TThreadPoolServer (64 workers, and uncapped) in one run. */
@Command(name = "server-bench", mixinStandardHelpOptions = true, description = {
    "The non-blocking server (netty-server) against libthrift's TThreadPoolServer built with ServerTransportFactory,"
        + " capped at 64 workers and uncapped, each server in its own JVM with the same -Xmx: idle authenticated"
        + " connections (RSS, heap, threads), a pre-authentication flood beside legitimate clients, closed-loop calls"
        + " at many and few connections, and TLS handshake rates beside openssl s_server/s_time.",
    "Prints a table per scenario and the goals of issue #12 met or missed; writes server-bench.csv, .json and .html."
        + " The default run takes about ten minutes on a 2-core machine; --quick well under one."})
final class ServerBenchCommand implements Callable<Integer> {
  @Option(names = "--quick", description = "Every row at small sizes (for a smoke test); other options still apply.")
  boolean quick;

  @Option(names = "--modes", split = ",", paramLabel = "MODE",
      description = "none, tls, sasl-auth, sasl-auth-conf (default: all).")
  List<String> modes;

  @Option(names = "--servers", split = ",", paramLabel = "SERVER",
      description = "nonblocking, nonblocking-inline (calls on the event loops; calls scenario only), threadpool-64,"
          + " threadpool (default: all).")
  List<String> servers;

  @Option(names = "--scenarios", split = ",", paramLabel = "NAME",
      description = "idle, calls, flood, handshakes (default: all).")
  List<String> scenarios;

  @Option(names = "--idle-connections", split = ",", paramLabel = "N",
      description = "Idle connection levels, climbed in turn (default: 1000,5000,10000).")
  List<Integer> idleLevels;

  @Option(names = "--flood-peers", description = "Peers trickling handshake bytes (default: 1000).")
  Integer floodPeers;

  @Option(names = "--flood-clients", description = "Legitimate clients beside them (default: 16).")
  Integer floodClients;

  @Option(names = "--stalled-peers", description = "Peers pipelining 1 MiB calls and never reading the replies,"
      + " in mode none (default: 200).")
  Integer stalledPeers;

  @Option(names = "--connections", description = "Connections of the many-connection calls (default: 1000).")
  Integer connections;

  @Option(names = "--few-connections", description = "Connections of the few-connection calls (default: 16).")
  Integer fewConnections;

  @Option(names = "--payloads", split = ",", paramLabel = "BYTES",
      description = "Echo payload sizes in bytes (default: 100,65536).")
  List<Integer> payloads;

  @Option(names = "--warm-up-ms", description = "Warm-up before each measured window (default: 3000).")
  Long warmUpMs;

  @Option(names = "--window-ms", description = "Each measured window (default: 3000).")
  Long windowMs;

  @Option(names = "--handshake-seconds", description = "openssl s_time run per server and handshake (default: 1).")
  Integer handshakeSeconds;

  @Option(names = "--handshake-rounds", description = "Rounds of the handshakes, alternating servers (default: 4).")
  Integer handshakeRounds;

  @Option(names = "--handshake-servers", split = ",", paramLabel = "SERVER",
      description = "Server models of the handshakes beside openssl s_server (default: nonblocking,threadpool).")
  List<String> handshakeServers;

  @Option(names = "--handshake-engines", split = ",", paramLabel = "ENGINE",
      description = "TLS engines of the handshakes' servers (default: jsse,conscrypt,openssl).")
  List<String> handshakeEngines;

  @Option(names = "--handshake-key-types", split = ",", paramLabel = "TYPE",
      description = "Key types of the handshakes' certificates: rsa (2048), ec (P-256) (default: rsa,ec).")
  List<String> handshakeKeyTypes;

  @Option(names = "--tls-engine", description = "Engine of mode tls in the other scenarios: jsse, conscrypt,"
      + " openssl (default: jsse).")
  String engine;

  @Option(names = "--server-heap", description = "-Xmx of every server JVM (default: 512m).")
  String serverHeap;

  @Option(names = "--server-java", description = "Java home of every server JVM, to compare runtimes (default: this"
      + " JVM's).")
  Path serverJava;

  @Option(names = "--openssl", description = "The openssl command (default: openssl).")
  String openssl;

  @Option(names = "--out", description = "Directory for server-bench.csv, .json, .html"
      + " (default: server-bench-results).")
  Path out;

  @Override
  public Integer call() throws Exception {
    ServerBenchOptions o = quick ? ServerBenchOptions.quick() : ServerBenchOptions.defaults();
    apply(modes, o::modes);
    apply(servers, o::servers);
    apply(scenarios, o::scenarios);
    apply(idleLevels, o::idleLevels);
    apply(floodPeers, o::floodPeers);
    apply(stalledPeers, o::stalledPeers);
    apply(floodClients, o::floodClients);
    apply(connections, o::connections);
    apply(fewConnections, o::fewConnections);
    apply(payloads, o::payloads);
    apply(warmUpMs, ms -> o.warmUp(Duration.ofMillis(ms)));
    apply(windowMs, ms -> o.window(Duration.ofMillis(ms)));
    apply(handshakeSeconds, o::handshakeSeconds);
    apply(handshakeRounds, o::handshakeRounds);
    apply(handshakeServers, o::handshakeServers);
    apply(handshakeEngines, o::handshakeEngines);
    apply(handshakeKeyTypes, o::handshakeKeyTypes);
    apply(engine, o::engine);
    apply(serverHeap, o::serverHeap);
    apply(serverJava, o::serverJava);
    apply(openssl, o::openssl);
    apply(out, o::out);
    ServerBenchReport report = ServerBench.run(o, System.err);
    System.out.print(report.table());
    report.write(o.outputDirectory()).forEach(file -> System.out.println("wrote " + file));
    return 0;
  }

  /** Applies an option the user gave; the preset's value stays otherwise. */
  private static <T> void apply(T value, Consumer<T> setter) {
    if (value != null) {
      setter.accept(value);
    }
  }
}
