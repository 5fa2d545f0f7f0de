package io.securethrift.zookeeper;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/** Opens ZooKeeper clients and waits for the session, as the tests need. */
final class Clients {
  static final int SESSION_TIMEOUT_MS = 6000;

  private Clients() {}

  /** A connected client, or an exception after {@code timeout}. */
  static ZooKeeper connect(String connectString, ZKClientConfig config, Duration timeout) throws Exception {
    return connect(connectString, config, KeeperState.SyncConnected, timeout);
  }

  /** A client once its session reached {@code state} (e.g. SaslAuthenticated), or an exception after timeout. */
  static ZooKeeper connect(String connectString, ZKClientConfig config, KeeperState state, Duration timeout)
      throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
      if (event.getState() == state) {
        reached.countDown();
      }
    }, config);
    if (!reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      zk.close();
      throw new IllegalStateException("ZooKeeper session with " + connectString + " not " + state + " within "
          + timeout);
    }
    return zk;
  }

  /** A client whose connection attempt has been started; the caller checks whether it ever connects. */
  static ZooKeeper open(String connectString, ZKClientConfig config, CountDownLatch connected) throws Exception {
    return new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
      if (event.getState() == KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, config);
  }
}
