package io.securethrift.zookeeper;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.testkit.Directories;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * One to a few ZooKeeper servers on loopback, each a child JVM running {@link SecureZooKeeperServerMain} with a
 * zoo.cfg from {@link ZooKeeperServerConfig}, on free ports, in a temporary directory; for tests and the benchmark (in
 * this module's test-jar, not its library jar). {@link #close()} kills the servers and deletes the directory.
 *
 * <pre>{@code
 * try (LocalEnsemble zk = LocalEnsemble.builder().size(3).security(id -> serverConfig)
 *     .secureClientPort(true).quorumTls(true).start()) {
 *   zk.awaitServing(List.of(1, 2, 3), probe, Duration.ofSeconds(60));
 *   new ZooKeeper(zk.connectString(true), 30_000, e -> {}, clientConfig);
 * }
 * }</pre>
 */
public final class LocalEnsemble implements AutoCloseable {
  private static final String HOST = "127.0.0.1";
  private static final String NOT_SERVING = "not currently serving requests";
  /** Where {@code freePorts} looks for ports: below the kernel's ephemeral range; null to let the kernel pick. */
  private static final int[] STATIC_PORTS = Builder.staticPorts();
  /** Every port {@link Builder#start()} has handed out in this JVM (see {@code freePorts}). */
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
  /** Where a lock file per port hands it to one JVM of all running tests and benchmarks (see {@code reserve}). */
  private static final Path PORT_LOCKS = Path.of(System.getProperty("java.io.tmpdir"), "securethrift-ports");
  /** The lock files of this JVM's ports, held open (and so locked) until it exits. */
  private static final List<FileChannel> RESERVED = new CopyOnWriteArrayList<>();
  /** Between two {@code srvr} probes while waiting; a probe of a port nobody listens on returns at once. */
  private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

  private final Path dir;
  private final List<Server> servers;

  private static final class Server {
    private final int id;
    private final int clientPort;
    private final int securePort;
    private final ChildJvm jvm;

    Server(int id, int clientPort, int securePort, ChildJvm jvm) {
      this.id = id;
      this.clientPort = clientPort;
      this.securePort = securePort;
      this.jvm = jvm;
    }
  }

  private LocalEnsemble(Path dir, List<Server> servers) {
    this.dir = dir;
    this.servers = servers;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code 127.0.0.1:port,...} of every server's plaintext ({@code secure=false}) or TLS client port. */
  public String connectString(boolean secure) {
    return servers.stream().map(s -> HOST + ":" + (secure ? s.securePort : s.clientPort))
        .collect(Collectors.joining(","));
  }

  /** {@code 127.0.0.1:port} of server {@code id}'s plaintext ({@code secure=false}) or TLS client port alone. */
  public String connectString(boolean secure, int id) {
    Server s = server(id);
    return HOST + ":" + (secure ? s.securePort : s.clientPort);
  }

  /**
   * The lowest id of a server that answers {@code srvr} as a follower, for a client that must not land on the leader.
   *
   * @throws IllegalStateException if no server says it is one (a standalone server, or an ensemble still electing)
   */
  public int follower(ZKClientConfig probe) {
    return servers.stream().map(s -> s.id).filter(id -> status(id, probe).contains("Mode: follower")).findFirst()
        .orElseThrow(() -> new IllegalStateException("no server answers srvr as a follower: " + servers.stream()
            .map(s -> s.id + ": " + status(s.id, probe)).collect(Collectors.joining("; "))));
  }

  /**
   * The server's answer to {@code srvr} through the probe's port and security, or the reason there was none. A
   * serving server reports its {@code Mode:}; one outside a quorum says it is not serving requests.
   */
  public String status(int id, ZKClientConfig probe) {
    Server s = server(id);
    boolean secure = probe.getBoolean(ZKClientConfig.SECURE_CLIENT);
    try {
      return FourLetterWordMain.send4LetterWord(HOST, secure ? s.securePort : s.clientPort, "srvr", probe, 2000);
    } catch (Exception e) {
      return "no answer: " + e;
    }
  }

  /** Whether the server answers {@code srvr} as a member of a working ensemble (or as a standalone server). */
  public boolean isServing(int id, ZKClientConfig probe) {
    String answer = status(id, probe);
    return answer.contains("Mode:") && !answer.contains(NOT_SERVING);
  }

  /**
   * Waits until every listed server is serving.
   *
   * @throws IllegalStateException with the servers' log tails if one has died or the time is up
   */
  public void awaitServing(Collection<Integer> ids, ZKClientConfig probe, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ids.stream().allMatch(id -> isServing(id, probe))) {
      for (int id : ids) {
        if (!server(id).jvm.process().isAlive()) {
          throw new IllegalStateException("ZooKeeper server " + id + " exited:\n" + server(id).jvm.logTail(30));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("ZooKeeper servers " + ids + " not serving after " + timeout + "; "
            + ids.stream().map(id -> id + ": " + status(id, probe) + "\n" + server(id).jvm.logTail(40))
                .collect(Collectors.joining("\n")));
      }
      LockSupport.parkNanos(POLL_INTERVAL.toNanos());
    }
  }

  /** The process ids of the servers' JVMs in server id order, for a benchmark to sample their CPU time. */
  public List<Long> pids() {
    return servers.stream().map(s -> s.jvm.process().pid()).collect(Collectors.toList());
  }

  /** Whether the server's JVM is still running. */
  public boolean isAlive(int id) {
    return server(id).jvm.process().isAlive();
  }

  private Server server(int id) {
    return servers.stream().filter(s -> s.id == id).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no server " + id));
  }

  /** Kills every server and deletes the directory. */
  @Override
  public void close() {
    servers.forEach(s -> s.jvm.close());
    Directories.deleteRecursively(dir);
  }

  /** Settings of a {@link LocalEnsemble}; {@link #start()} launches it without waiting for it to serve. */
  public static final class Builder {
    private int size = 1;
    private IntFunction<SecurityConfig> security = id -> SecurityConfig.builder().build();
    private boolean clientPort = true;
    private boolean secureClientPort;
    private boolean quorumTls;
    private boolean quorumSasl;
    private int tickTime = 500;
    private List<String> jvmOptions = List.of("-Xmx256m", "-XX:+UseSerialGC");
    private Path javaHome = Path.of(System.getProperty("java.home"));

    private Builder() {}

    /** Number of servers: 1 runs standalone, more form an ensemble. */
    public Builder size(int servers) {
      this.size = servers;
      return this;
    }

    /** The same server configuration for every server. */
    public Builder security(SecurityConfig config) {
      return security(id -> config);
    }

    /** Each server's configuration by id (1-based), e.g. to give one server a certificate from another CA. */
    public Builder security(IntFunction<SecurityConfig> byId) {
      this.security = Objects.requireNonNull(byId);
      return this;
    }

    /** Whether servers have a plaintext client port (default true). */
    public Builder clientPort(boolean enabled) {
      this.clientPort = enabled;
      return this;
    }

    /** Whether servers have a TLS client port (default false). */
    public Builder secureClientPort(boolean enabled) {
      this.secureClientPort = enabled;
      return this;
    }

    /** Whether quorum connections use TLS (default false). */
    public Builder quorumTls(boolean enabled) {
      this.quorumTls = enabled;
      return this;
    }

    /**
     * Whether quorum peers authenticate each other with Kerberos (default false). Peers are then named {@code
     * localhost} in the server lines: a learner asks for the ticket of {@code primary/<peer's host>}.
     */
    public Builder quorumSasl(boolean enabled) {
      this.quorumSasl = enabled;
      return this;
    }

    /** ZooKeeper tick in milliseconds (default 500, so elections finish quickly). */
    public Builder tickTime(int millis) {
      this.tickTime = millis;
      return this;
    }

    /** JVM options of each server (default a 256 MB heap and the serial collector). */
    public Builder jvmOptions(List<String> options) {
      this.jvmOptions = List.copyOf(options);
      return this;
    }

    /** The Java runtime the servers run on (default: this JVM's). */
    public Builder javaHome(Path home) {
      this.javaHome = home;
      return this;
    }

    public LocalEnsemble start() {
      Path dir;
      try {
        dir = Files.createTempDirectory("securethrift-zk-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a temporary directory", e);
      }
      List<Server> started = new ArrayList<>();
      try {
        int[][] ports = new int[size][];
        for (int i = 0; i < size; i++) {
          ports[i] = freePorts(4);
        }
        for (int i = 0; i < size; i++) {
          int id = i + 1;
          ZooKeeperServerConfig.Builder cfg = ZooKeeperServerConfig.builder(security.apply(id))
              .confDir(dir.resolve("server-" + id)).tickTime(tickTime).quorumTls(quorumTls).quorumSasl(quorumSasl)
              .clientPort(clientPort ? ports[i][0] : 0).secureClientPort(secureClientPort ? ports[i][1] : 0);
          if (size > 1) {
            cfg.myid(id);
            for (int j = 0; j < size; j++) {
              cfg.server(j + 1, quorumSasl ? "localhost" : HOST, ports[j][2], ports[j][3]);
            }
          }
          Path zooCfg = cfg.build().write();
          ChildJvm jvm = ChildJvm.builder(SecureZooKeeperServerMain.class).name("ZooKeeper server " + id)
              .jvmOptions(jvmOptions).javaHome(javaHome).args(List.of(zooCfg.toString()))
              .log(dir.resolve("server-" + id + ".log")).start();
          started.add(new Server(id, ports[i][0], ports[i][1], jvm));
        }
        return new LocalEnsemble(dir, List.copyOf(started));
      } catch (RuntimeException e) {
        started.forEach(s -> s.jvm.close());
        Directories.deleteRecursively(dir);
        throw e;
      }
    }

    /**
     * Ports free now, never handed out before in this JVM and reserved for it among JVMs (see {@code reserve}); held
     * open together so no two are the same, then
     * released for the servers to bind. Without the second condition, ensembles started side by side (zk-bench starts
     * a dozen before any is waited for) were given a port another had just released and not yet bound. They are taken
     * below the kernel's ephemeral range where it can be read: a port from that range, released, could become the
     * local port of any outgoing connection on the machine before the server bound it ("Address already in use").
     */
    private static int[] freePorts(int count) {
      List<ServerSocket> sockets = new ArrayList<>();
      try {
        InetAddress host = InetAddress.getByName(HOST);
        int[] ports = new int[count];
        int found = 0;
        for (int attempt = 0; found < count; attempt++) {
          ServerSocket socket = new ServerSocket();
          sockets.add(socket);
          int candidate = STATIC_PORTS == null || attempt > 10_000 ? 0
              : STATIC_PORTS[0] + ThreadLocalRandom.current().nextInt(STATIC_PORTS[1] - STATIC_PORTS[0]);
          try {
            socket.bind(new InetSocketAddress(host, candidate), 1);
          } catch (IOException taken) {
            continue;
          }
          if (HANDED_OUT.add(socket.getLocalPort()) && reserve(socket.getLocalPort())) {
            ports[found++] = socket.getLocalPort();
          }
        }
        return ports;
      } catch (IOException e) {
        throw new UncheckedIOException("no free port on " + HOST, e);
      } finally {
        for (ServerSocket s : sockets) {
          try {
            s.close();
          } catch (IOException ignored) {
            // Closing a listening socket that was never used cannot lose data.
          }
        }
      }
    }
    /**
     * Locks {@code port}'s file for this JVM, unless another JVM holds it. Another JVM picking from the same range
     * (the zookeeper module's tests and zk-bench's run side by side under {@code -T 2}) could otherwise be given a
     * port this one had checked and released but whose server had not bound it yet.
     */
    private static boolean reserve(int port) {
      try {
        Files.createDirectories(PORT_LOCKS);
        FileChannel channel = FileChannel.open(PORT_LOCKS.resolve(Integer.toString(port)), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
        boolean locked = false;
        try {
          locked = channel.tryLock() != null;
        } finally {
          if (locked) {
            RESERVED.add(channel);
          } else {
            channel.close();
          }
        }
        return locked;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot lock a file in " + PORT_LOCKS + " to reserve port " + port, e);
      }
    }


    /**
     * From 10000 to the start of Linux's ephemeral port range ({@code net.ipv4.ip_local_port_range}); null where that
     * cannot be read or leaves fewer than 1,000 ports, and the kernel then picks.
     */
    private static int[] staticPorts() {
      // Read line by line: Files.readString trusts the size a /proc file reports, and returned only "3" of
      // "32768\t60999", which left every ensemble on the kernel's ephemeral ports.
      try (BufferedReader in = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
        String[] range = String.valueOf(in.readLine()).trim().split("\\s+");
        int ephemeralStart = Integer.parseInt(range[0]);
        return ephemeralStart - 10_000 >= 1_000 ? new int[] {10_000, ephemeralStart} : null;
      } catch (IOException | RuntimeException unreadable) {
        return null;
      }
    }
  }
}
