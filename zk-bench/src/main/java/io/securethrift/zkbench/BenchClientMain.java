package io.securethrift.zkbench;

import io.securethrift.harness.ProcessSample;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.zookeeper.ConscryptDefaultTls;
import io.securethrift.zookeeper.ZooKeeperClientSecurity;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * zk-bench's client for one shape and mode, in its own JVM so that engine conscrypt can make Conscrypt the JVM's
 * TLS provider (the only way into ZooKeeper's Netty client) while the other modes keep JSSE. Arguments: securethrift
 * properties file, connect string, znodes per asynchronous phase, znodes of the synchronous phase, fresh sessions
 * per iteration, and optionally the connect string of the servers' plain client port, the servers' process ids
 * (comma-separated) and the directory of their GC logs: then {@code RUN baseline=true} runs the same workload over a
 * plaintext session of this JVM (the baseline in the mode's own processes, see
 * {@link io.securethrift.harness.PairedAnalysis}), and {@code TURNS} runs both, taking turns. For each
 * {@code RUN} command ({@link ChildJvm}'s line protocol) it runs one {@link Workload} iteration and answers its raw
 * columns ({@link ZkRow}) with this JVM's garbage collection so far; for each {@code TURNS} command, one iteration of
 * each session with each side's columns and what it used in this process and the servers' ({@link TakingTurns}); for
 * each {@code SESSIONS} command it opens the fresh sessions and answers their median time, with over TLS the
 * {@link HandshakeProbe}'s figures on resumption; it exits at end of input.
 */
final class BenchClientMain {
  static final String RUN = "RUN";
  /** Opens the fresh sessions, apart from {@code RUN} so that their handshakes stay out of its CPU per operation. */
  static final String SESSIONS = "SESSIONS";
  /** The field of a {@code RUN} command that sends it to the plaintext session. */
  static final String BASELINE = "baseline";
  /** Runs an iteration of the TLS session and one of the plaintext session taking turns, step by step. */
  static final String TURNS = "TURNS";
  /** The field of a {@code TURNS} command that gives the plaintext session the first turn. */
  static final String BASELINE_FIRST = "baselineFirst";
  private static final int SESSION_TIMEOUT_MS = 30_000;

  private BenchClientMain() {}

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.ISO_8859_1)) {
      p.load(r);
    }
    Map<String, String> map = p.stringPropertyNames().stream().collect(Collectors.toMap(k -> k, p::getProperty));
    if (TlsEngine.CONSCRYPT.token().equals(map.get("securethrift.tls.engine"))) {
      ConscryptDefaultTls.install();
    }
    SecurityConfig config = SecurityConfig.fromProperties(map);
    String connect = args[1];
    int znodes = Integer.parseInt(args[2]);
    int syncZnodes = Integer.parseInt(args[3]);
    int sessions = Integer.parseInt(args[4]);
    try (ZooKeeper zk = connect(connect, config);
        ZooKeeper plain = args.length > 5 ? connect(args[5], SecurityConfig.builder().build()) : null) {
      zk.create("/bench", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      Workload workload = new Workload(zk, znodes, "/bench");
      Workload baseline = null;
      if (plain != null) {
        plain.create("/bench-baseline", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        baseline = new Workload(plain, znodes, "/bench-baseline");
      }
      Workload onBaseline = baseline;
      TakingTurns turns = plain == null ? null : new TakingTurns(Arrays.stream(args[6].split(","))
          .map(Long::valueOf).collect(Collectors.toList()), Path.of(args[7]));
      ChildJvm.serve(command -> {
        switch (command.kind()) {
          case RUN:
            if (!Boolean.parseBoolean(command.fields().get(BASELINE))) {
              return iteration(workload, syncZnodes);
            }
            return iteration(withBaseline(onBaseline, command), syncZnodes);
          case TURNS:
            return turns.run(workload, withBaseline(onBaseline, command), syncZnodes,
                Boolean.parseBoolean(command.get(BASELINE_FIRST)));
          case SESSIONS:
            return sessions(sessions, connect, config);
          default:
            throw new IllegalArgumentException("unknown command " + command.kind());
        }
      });
    }
  }

  private static Workload withBaseline(Workload baseline, LineRecord command) {
    if (baseline == null) {
      throw new IllegalArgumentException(command.kind() + " on the plaintext session, but this client was started"
          + " without the plain client port's connect string");
    }
    return baseline;
  }

  private static LineRecord iteration(Workload workload, int syncZnodes) throws Exception {
    LineRecord r = columns(LineRecord.of("RESULT"), "", workload.run(syncZnodes));
    long[] gc = ProcessSample.gcTotals();
    return r.with(ZkRow.GC_COUNT, gc[0]).with(ZkRow.GC_MS, gc[1]);
  }

  /** The phase and synchronous columns of {@code result}, each name after {@code prefix}. */
  static LineRecord columns(LineRecord r, String prefix, Workload.Result result) {
    for (int i = 0; i < Workload.PHASES.size(); i++) {
      r.with(prefix + ZkRow.phaseColumn(Workload.PHASES.get(i)), format(result.phaseMs[i]));
    }
    long syncNanos = 0;
    for (int op = 0; op < Workload.SYNC_OPS.size(); op++) {
      long[] nanos = result.syncNanos[op];
      for (long n : nanos) {
        syncNanos += n;
      }
      String name = Workload.SYNC_OPS.get(op);
      r.with(prefix + ZkRow.syncColumn(name, 50), format(Workload.quantile(nanos, 0.50) / 1e3));
      r.with(prefix + ZkRow.syncColumn(name, 99), format(Workload.quantile(nanos, 0.99) / 1e3));
    }
    return r.with(prefix + ZkRow.SYNC_MS, format(syncNanos / 1e6));
  }

  /** The fresh sessions' median time and, over TLS, the handshake probe's resumption figures. */
  private static LineRecord sessions(int count, String connect, SecurityConfig config) throws Exception {
    LineRecord r = LineRecord.of("RESULT").with(ZkRow.SESSION_MS, format(freshSessions(count, connect, config)));
    ZKClientConfig zk = ZooKeeperClientSecurity.clientConfig(config);
    if (count < 2 || !zk.getBoolean(ZKClientConfig.SECURE_CLIENT)) {
      return r;
    }
    // The first server of the connect string: resumption is per server, as a reconnect to the same one would see.
    String[] hostPort = connect.split(",")[0].split(":");
    HandshakeProbe.Result h = HandshakeProbe.run(zk, hostPort[0], Integer.parseInt(hostPort[1]), count + 1);
    return r.with(ZkRow.HANDSHAKE_FIRST_MS, format(h.firstMs())).with(ZkRow.HANDSHAKE_LATER_MS, format(h.laterMs()))
        .with(ZkRow.HANDSHAKES_RESUMED, format((double) h.resumed() / h.later()));
  }

  /**
   * The median milliseconds from creating a ZooKeeper client to the reply of its first request, over
   * {@code count} new sessions. ZooKeeper's Netty client builds a new SSL context for every client object, so each
   * new session pays a full TLS handshake: this is the cost of connecting, not of resuming.
   */
  private static double freshSessions(int count, String connect, SecurityConfig config) throws Exception {
    if (count == 0) {
      return Double.NaN;
    }
    double[] ms = new double[count];
    for (int i = 0; i < count; i++) {
      long start = System.nanoTime();
      try (ZooKeeper zk = connect(connect, config)) {
        zk.exists("/bench", false);
        ms[i] = (System.nanoTime() - start) / 1e6;
      }
    }
    Arrays.sort(ms);
    return count % 2 == 1 ? ms[count / 2] : (ms[count / 2 - 1] + ms[count / 2]) / 2;
  }

  private static ZooKeeper connect(String connect, SecurityConfig config) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(connect, SESSION_TIMEOUT_MS, e -> {
      if (e.getState() == KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, ZooKeeperClientSecurity.clientConfig(config));
    if (!connected.await(60, TimeUnit.SECONDS)) {
      zk.close();
      throw new IllegalStateException("no session with " + connect + " within 60 s");
    }
    return zk;
  }

  private static String format(double value) {
    return String.format(Locale.ROOT, "%.3f", value);
  }
}
