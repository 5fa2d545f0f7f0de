package io.securethrift.zookeeper;

import io.securethrift.core.SecurityConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;

/**
 * A ZooKeeper client in its own JVM with Conscrypt as the JVM's TLS provider (which must happen before anything
 * else, hence a process): creates a znode, reads it back and prints {@code engine=<provider> data=<text>}.
 * Arguments: securethrift properties file, connect string, znode path.
 */
final class ConscryptClientMain {
  private ConscryptClientMain() {}

  public static void main(String[] args) throws Exception {
    ConscryptDefaultTls.install();
    SecurityConfig config = SecurityConfig.fromProperties(
        SecureZooKeeperServerMain.asMap(SecureZooKeeperServerMain.load(Path.of(args[0]))));
    try (ZooKeeper zk = Clients.connect(args[1], ZooKeeperClientSecurity.clientConfig(config),
        Duration.ofSeconds(30))) {
      zk.create(args[2], "from conscrypt".getBytes(), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      String data = new String(zk.getData(args[2], false, null));
      System.out.println("engine=" + javax.net.ssl.SSLContext.getInstance("TLS").getProvider().getName()
          + " data=" + data);
    }
    System.exit(0);
  }

  static List<String> args(Path config, String connectString, String path) {
    return List.of(config.toString(), connectString, path);
  }
}
