package io.securethrift.zookeeper.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.zookeeper.ConscryptDefaultTls;
import io.securethrift.zookeeper.ZooKeeperClientSecurity;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;

/**
 * zk-bench's client for one mode, in its own JVM so that engine conscrypt can make Conscrypt the JVM's TLS provider
 * (the only way into ZooKeeper's Netty client) while the other modes keep JSSE. Arguments: securethrift properties
 * file, connect string, znodes. For each {@code RUN} command ({@link ChildJvm}'s line protocol) it runs one
 * {@link Workload} iteration and answers its phase times by name ({@link Workload#toRecord}); it exits at end of input.
 */
final class BenchClientMain {
  static final String RUN = "RUN";

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
    CountDownLatch connected = new CountDownLatch(1);
    try (ZooKeeper zk = new ZooKeeper(args[1], 30_000, e -> {
      if (e.getState() == KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, ZooKeeperClientSecurity.clientConfig(config))) {
      if (!connected.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("no session with " + args[1]);
      }
      zk.create("/bench", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      Workload workload = new Workload(zk, Integer.parseInt(args[2]), "/bench");
      ChildJvm.serve(command -> {
        if (!command.kind().equals(RUN)) {
          throw new IllegalArgumentException("unknown command " + command.kind());
        }
        return Workload.toRecord(workload.run());
      });
    }
  }
}
