import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.ZooKeeperInstance;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.minicluster.impl.MiniAccumuloClusterImpl;
import org.apache.accumulo.minicluster.impl.MiniAccumuloConfigImpl;
import org.apache.zookeeper.ZooKeeper;

/**
 * Starts an Accumulo 1.7 MiniAccumuloCluster for securethrift's cross-JVM interop tests. It runs with the JDK's source
 * launcher on Accumulo 1.7's own class path (target/accumulo-1.7, libthrift 0.9.1), which can never share a JVM with
 * securethrift. Arguments: the cluster directory, then {@code key=value} settings: {@code root.password},
 * {@code root.user}, {@code site.<accumulo key>}, {@code sys.<system property for every server>} and
 * {@code core-site.kerberos=true}. It prints {@code SITE}, {@code CLIENT_CONF}, {@code INSTANCE} and {@code TSERVER}
 * lines, then {@code READY}, and stops the cluster when its standard input closes.
 */
public class Mac17 {
  private static final long TSERVER_WAIT_SECONDS = 120;

  public static void main(String[] args) throws Exception {
    File dir = new File(args[0]);
    Map<String, String> settings = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    MiniAccumuloConfigImpl config = new MiniAccumuloConfigImpl(dir, settings.get("root.password"));
    config.setNumTservers(1);
    config.setDefaultMemory(256, MemoryUnit.MEGABYTE);
    Map<String, String> site = new HashMap<>();
    Map<String, String> system = new HashMap<>();
    settings.forEach((k, v) -> {
      if (k.startsWith("site.")) {
        site.put(k.substring("site.".length()), v);
      } else if (k.startsWith("sys.")) {
        system.put(k.substring("sys.".length()), v);
      }
    });
    config.setSiteConfig(site);
    config.setSystemProperties(system);
    if (settings.containsKey("root.user")) {
      config.setRootUserName(settings.get("root.user"));
    }
    // MAC 1.7 cannot discover a JDK 17 class path itself; the conf directory comes first so servers find core-site.xml.
    List<String> classpath = new ArrayList<>();
    classpath.add(new File(dir, "conf").getAbsolutePath());
    classpath.addAll(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
    config.setClasspathItems(classpath.toArray(new String[0]));
    MiniAccumuloClusterImpl cluster = new MiniAccumuloClusterImpl(config);
    if ("true".equals(settings.get("core-site.kerberos"))) {
      Files.write(new File(config.getConfDir(), "core-site.xml").toPath(), ("<configuration><property>"
          + "<name>hadoop.security.authentication</name><value>kerberos</value></property></configuration>\n")
          .getBytes(StandardCharsets.UTF_8));
    }
    cluster.start();
    try {
      String instanceId = new ZooKeeperInstance(cluster.getClientConfig()).getInstanceID();
      System.out.println("SITE " + new File(config.getConfDir(), "accumulo-site.xml").getAbsolutePath());
      System.out.println("CLIENT_CONF " + config.getClientConfFile().getAbsolutePath());
      System.out.println("INSTANCE " + instanceId);
      System.out.println("TSERVER " + tabletServer(cluster.getZooKeepers(), instanceId));
      System.out.println("READY");
      System.out.flush();
      while (System.in.read() != -1) {
        // The test closes standard input to stop the cluster.
      }
    } finally {
      cluster.stop();
    }
    System.exit(0);
  }

  /** Waits, by ZooKeeper watches, until a tablet server holds its lock, which it takes once it serves RPC. */
  private static String tabletServer(String zooKeepers, String instanceId) throws Exception {
    ZooKeeper zk = new ZooKeeper(zooKeepers, 30_000, event -> { });
    try {
      String root = "/accumulo/" + instanceId + "/tservers";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TSERVER_WAIT_SECONDS);
      while (System.nanoTime() < deadline) {
        CountDownLatch changed = new CountDownLatch(1);
        for (String server : zk.getChildren(root, event -> changed.countDown())) {
          if (!zk.getChildren(root + "/" + server, event -> changed.countDown()).isEmpty()) {
            return server;
          }
        }
        changed.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      }
      throw new IllegalStateException("no tablet server registered within " + TSERVER_WAIT_SECONDS + " s");
    } finally {
      zk.close();
    }
  }
}
