package io.securethrift.bench.server;

import io.securethrift.harness.BenchMode;
import io.securethrift.core.ConfigException;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.KeyType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The sizes of one server-bench run. {@link #defaults()} is the full run (about ten minutes on a 2-core machine);
 * {@link #quick()} is the same table at small sizes, well under a minute.
 */
public final class ServerBenchOptions {
  private static final Path THIS_JAVA = Path.of(System.getProperty("java.home"));
  /** The scenarios, in the order they run; {@code --scenarios} picks among them. */
  public static final List<String> SCENARIOS = List.of(IdleConnections.SCENARIO, ClosedLoop.SCENARIO,
      PreAuthFlood.SCENARIO, StalledReaders.SCENARIO, HandshakeRates.SCENARIO);

  List<BenchMode> modes = ServerModes.MODES.all();
  List<ServerKind> servers = List.of(ServerKind.values());
  Set<String> scenarios = new LinkedHashSet<>(SCENARIOS);
  List<Integer> idleLevels = List.of(1_000, 5_000, 10_000);
  int floodPeers = 1_000;
  int floodClients = 16;
  int stalledPeers = 200;
  int connections = 1_000;
  int fewConnections = 16;
  List<Integer> payloads = List.of(100, 64 * 1024);
  Duration warmUp = Duration.ofSeconds(3);
  Duration window = Duration.ofSeconds(3);
  int handshakeSeconds = 1;
  /** Rounds of the handshake scenario; each runs s_time once per server. */
  int handshakeRounds = 4;
  /** A Java server's first handshakes run in the interpreter: an uncounted run first (not in the quick preset). */
  boolean handshakeWarmUp = true;
  TlsEngine engine = TlsEngine.JSSE;
  List<TlsEngine> handshakeEngines = List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT, TlsEngine.OPENSSL);
  List<ServerKind> handshakeServers = List.of(ServerKind.NONBLOCKING, ServerKind.THREADPOOL);
  List<KeyType> handshakeKeyTypes = List.of(KeyType.RSA, KeyType.EC);
  String serverHeap = "512m";
  /** The Java runtime of every server JVM: this JVM's unless {@code --server-java} names another. */
  Path serverJava = THIS_JAVA;
  String openssl = "openssl";
  Path out = Path.of("server-bench-results");

  private ServerBenchOptions() {}

  public static ServerBenchOptions defaults() {
    return new ServerBenchOptions();
  }

  /** Every row of the full run at sizes that finish in well under a minute. */
  public static ServerBenchOptions quick() {
    ServerBenchOptions o = new ServerBenchOptions();
    o.idleLevels = List.of(50, 100);
    o.floodPeers = 100;
    o.floodClients = 4;
    o.stalledPeers = 20;
    o.connections = 40;
    o.fewConnections = 4;
    o.warmUp = Duration.ofMillis(300);
    o.window = Duration.ofMillis(500);
    o.handshakeSeconds = 1;
    o.handshakeRounds = 1;
    o.handshakeWarmUp = false;
    o.handshakeServers = List.of(ServerKind.NONBLOCKING);
    o.handshakeKeyTypes = List.of(KeyType.EC);
    return o;
  }

  public ServerBenchOptions modes(List<String> tokens) {
    List<BenchMode> parsed = new ArrayList<>();
    for (String token : tokens) {
      parsed.add(ServerModes.MODES.parse("--modes", token));
    }
    modes = List.copyOf(parsed);
    return this;
  }

  /** Which servers run the per-mode scenarios; a goal whose thread-pool figure is missing is marked missed. */
  public ServerBenchOptions servers(List<String> tokens) {
    servers = kinds("--servers", tokens);
    return this;
  }

  public ServerBenchOptions scenarios(List<String> names) {
    for (String name : names) {
      if (!SCENARIOS.contains(name)) {
        throw new ConfigException("--scenarios", "'" + name + "' is not a scenario; one of " + String.join(", ",
            SCENARIOS));
      }
    }
    scenarios = new LinkedHashSet<>(names);
    return this;
  }

  public ServerBenchOptions idleLevels(List<Integer> levels) {
    idleLevels = positive("--idle-connections", levels);
    return this;
  }

  public ServerBenchOptions floodPeers(int peers) {
    floodPeers = positive("--flood-peers", peers);
    return this;
  }

  public ServerBenchOptions stalledPeers(int peers) {
    stalledPeers = positive("--stalled-peers", peers);
    return this;
  }

  public ServerBenchOptions floodClients(int clients) {
    floodClients = positive("--flood-clients", clients);
    return this;
  }

  public ServerBenchOptions connections(int many) {
    connections = positive("--connections", many);
    return this;
  }

  public ServerBenchOptions fewConnections(int few) {
    fewConnections = positive("--few-connections", few);
    return this;
  }

  public ServerBenchOptions payloads(List<Integer> sizes) {
    payloads = positive("--payloads", sizes);
    return this;
  }

  public ServerBenchOptions warmUp(Duration duration) {
    warmUp = duration;
    return this;
  }

  public ServerBenchOptions window(Duration duration) {
    if (duration.isZero() || duration.isNegative()) {
      throw new ConfigException("--window-ms", "must be positive, got " + duration.toMillis());
    }
    window = duration;
    return this;
  }

  public ServerBenchOptions handshakeSeconds(int seconds) {
    handshakeSeconds = positive("--handshake-seconds", seconds);
    return this;
  }

  public ServerBenchOptions handshakeRounds(int rounds) {
    handshakeRounds = positive("--handshake-rounds", rounds);
    return this;
  }

  /** The engines of the handshake scenario's servers; {@code auto} is refused, since each row names its engine. */
  public ServerBenchOptions handshakeEngines(List<String> tokens) {
    List<TlsEngine> parsed = new ArrayList<>();
    for (String token : tokens) {
      TlsEngine engine = TlsEngine.parse("--handshake-engines", token);
      if (engine.isAuto()) {
        throw new ConfigException("--handshake-engines", "'auto' names no engine; list engines such as jsse,openssl");
      }
      parsed.add(engine);
    }
    handshakeEngines = List.copyOf(parsed);
    return this;
  }

  /** The servers of the handshake scenario besides {@code openssl s_server}. */
  public ServerBenchOptions handshakeServers(List<String> tokens) {
    handshakeServers = kinds("--handshake-servers", tokens);
    return this;
  }

  /** The key types of the handshake scenario's certificates: {@code rsa} (2048 bits), {@code ec} (P-256). */
  public ServerBenchOptions handshakeKeyTypes(List<String> tokens) {
    List<KeyType> parsed = new ArrayList<>();
    for (String token : tokens) {
      parsed.add(KeyType.byToken(token).filter(t -> t != KeyType.RSA_1024).orElseThrow(() -> new ConfigException(
          "--handshake-key-types", "'" + token + "' is not a key type; one of rsa, ec")));
    }
    handshakeKeyTypes = List.copyOf(parsed);
    return this;
  }

  public ServerBenchOptions engine(String token) {
    engine = TlsEngine.parse("--tls-engine", token);
    return this;
  }

  public ServerBenchOptions serverHeap(String heap) {
    if (!heap.matches("[0-9]+[kmgKMG]?")) {
      throw new ConfigException("--server-heap", "'" + heap + "' is not a heap size such as 512m or 1g");
    }
    serverHeap = heap;
    return this;
  }

  /**
   * Runs the server JVMs on the Java runtime at {@code home} (11 or later), to compare runtimes: the clients and
   * {@code openssl} stay as they are.
   */
  public ServerBenchOptions serverJava(Path home) {
    if (!Files.isExecutable(home.resolve("bin").resolve("java"))) {
      throw new ConfigException("--server-java", "'" + home + "' is not a Java home: it has no executable bin/java;"
          + " give the directory above bin/java of a Java 11 or later runtime");
    }
    serverJava = home;
    return this;
  }

  public ServerBenchOptions openssl(String command) {
    openssl = command;
    return this;
  }

  public ServerBenchOptions out(Path dir) {
    out = dir;
    return this;
  }

  private static List<ServerKind> kinds(String option, List<String> tokens) {
    List<ServerKind> parsed = new ArrayList<>();
    for (String token : tokens) {
      parsed.add(ServerKind.parse(option, token));
    }
    return List.copyOf(parsed);
  }

  private static List<Integer> positive(String option, List<Integer> values) {
    values.forEach(v -> positive(option, v));
    return List.copyOf(values);
  }

  private static int positive(String option, int value) {
    if (value < 1) {
      throw new ConfigException(option, "must be at least 1, got " + value);
    }
    return value;
  }

  public Path outputDirectory() {
    return out;
  }

  /** One line naming every size, printed above the table. */
  String describe() {
    return "modes " + modes + "; servers " + servers + "; idle " + idleLevels + " conns; flood " + floodPeers
        + " trickling peers + " + floodClients + " clients; " + stalledPeers + " stalled peers; calls at " + connections
        + " and " + fewConnections + " conns, payloads " + payloads + " B; warm-up " + warmUp.toMillis()
        + " ms, window " + window.toMillis() + " ms; handshakes " + handshakeSeconds + " s each, " + handshakeRounds
        + " rounds, keys " + handshakeKeyTypes.stream().map(KeyType::token).toList() + ", engines " + handshakeEngines
        + ", servers " + handshakeServers + "; tls engine " + engine + "; server -Xmx" + serverHeap
        + (serverJava.equals(THIS_JAVA) ? "" : " on " + serverJava);
  }
}
