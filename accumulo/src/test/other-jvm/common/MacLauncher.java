import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.zookeeper.ZooKeeper;

/**
 * What the launchers of every Accumulo line (Mac17, Mac30) share: their arguments, the lines they answer the test
 * with, and the ZooKeeper look-ups, which read the same nodes in 1.7 and 3.0. Compiled once per line against that
 * line's ZooKeeper, so it uses only API both have.
 *
 * <p>Arguments: the cluster directory, then {@code key=value} settings: {@code root.password}, {@code root.user},
 * {@code site.<accumulo key>}, {@code sys.<system property of every server>}, {@code core-site.kerberos=true}, and
 * whatever the line's launcher adds. Answers are {@code KEY value} lines on standard output, then {@code READY}; the
 * cluster stops when standard input closes.
 */
final class MacLauncher {
  private static final long LOCK_WAIT_SECONDS = 120;
  private static final int ZOOKEEPER_SESSION_MILLIS = 30_000;

  private final File dir;
  private final Map<String, String> settings;

  private MacLauncher(File dir, Map<String, String> settings) {
    this.dir = dir;
    this.settings = settings;
  }

  static MacLauncher parse(String[] args) {
    Map<String, String> settings = new TreeMap<>();
    for (String arg : Arrays.asList(args).subList(1, args.length)) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("setting '" + arg + "' is not key=value");
      }
      settings.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return new MacLauncher(new File(args[0]), settings);
  }

  File dir() {
    return dir;
  }

  /** A setting, or null when the test did not give it. */
  String get(String key) {
    return settings.get(key);
  }

  /** The settings whose keys start with {@code prefix}, keyed by the rest of the key. */
  Map<String, String> withPrefix(String prefix) {
    Map<String, String> found = new TreeMap<>();
    settings.forEach((k, v) -> {
      if (k.startsWith(prefix)) {
        found.put(k.substring(prefix.length()), v);
      }
    });
    return found;
  }

  /**
   * This JVM's class path with the cluster's conf directory first, for servers that must find core-site.xml there;
   * MAC 1.7 cannot work the class path out itself on JDK 9 and later.
   */
  List<String> classPath(File confDir) {
    List<String> items = new ArrayList<>();
    items.add(confDir.getAbsolutePath());
    items.addAll(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
    return items;
  }

  /** Hadoop's UserGroupInformation in the servers logs in with Kerberos only when core-site.xml says so. */
  void writeCoreSite(File confDir) throws IOException {
    if ("true".equals(get("core-site.kerberos"))) {
      Files.write(new File(confDir, "core-site.xml").toPath(), ("<configuration><property>"
          + "<name>hadoop.security.authentication</name><value>kerberos</value></property></configuration>\n")
          .getBytes(StandardCharsets.UTF_8));
    }
  }

  /** One answer line for the test. */
  static void answer(String key, Object value) {
    System.out.println(key + " " + value);
  }

  /** Tells the test the cluster is ready and returns when the test closes standard input. */
  static void readyUntilStandardInputCloses() throws IOException {
    System.out.println("READY");
    System.out.flush();
    while (System.in.read() != -1) {
      // Nothing is sent; end of input is the signal to stop.
    }
  }

  /** The instance id ZooKeeper holds for {@code instanceName}. */
  static String instanceId(String zooKeepers, String instanceName) throws Exception {
    ZooKeeper zk = new ZooKeeper(zooKeepers, ZOOKEEPER_SESSION_MILLIS, event -> { });
    try {
      return new String(zk.getData("/accumulo/instances/" + instanceName, false, null), StandardCharsets.UTF_8);
    } finally {
      zk.close();
    }
  }

  /**
   * Waits, by ZooKeeper watches, until a tablet server that {@code wanted} accepts ({@code host:port}) holds its
   * lock, which it takes once it serves RPC, and returns its address.
   *
   * @param what the server, for the error when it never takes its lock
   */
  static String lockedTabletServer(String zooKeepers, String instanceId, String what, Predicate<String> wanted)
      throws Exception {
    ZooKeeper zk = new ZooKeeper(zooKeepers, ZOOKEEPER_SESSION_MILLIS, event -> { });
    try {
      String root = "/accumulo/" + instanceId + "/tservers";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LOCK_WAIT_SECONDS);
      while (System.nanoTime() < deadline) {
        CountDownLatch changed = new CountDownLatch(1);
        for (String server : zk.getChildren(root, event -> changed.countDown())) {
          if (wanted.test(server) && !zk.getChildren(root + "/" + server, event -> changed.countDown()).isEmpty()) {
            return server;
          }
        }
        changed.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      }
      throw new IllegalStateException("the tablet server " + what + " took no lock in ZooKeeper within "
          + LOCK_WAIT_SECONDS + " s; its standard output and error are in the cluster's logs directory");
    } finally {
      zk.close();
    }
  }
}
