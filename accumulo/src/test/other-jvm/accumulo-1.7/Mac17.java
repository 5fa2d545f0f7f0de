import java.io.File;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.minicluster.impl.MiniAccumuloClusterImpl;
import org.apache.accumulo.minicluster.impl.MiniAccumuloConfigImpl;

/**
 * Starts an Accumulo 1.7 MiniAccumuloCluster for securethrift's cross-JVM interop tests, on Accumulo 1.7's own class
 * path (libthrift 0.9.1), which can never share a JVM with securethrift. Takes {@link MacLauncher}'s settings and
 * answers {@code SITE} (accumulo-site.xml), {@code CLIENT_CONF}, {@code INSTANCE} and {@code TSERVER}.
 */
public class Mac17 {
  public static void main(String[] args) throws Exception {
    MacLauncher launch = MacLauncher.parse(args);
    MiniAccumuloConfigImpl config = new MiniAccumuloConfigImpl(launch.dir(), launch.get("root.password"));
    config.setNumTservers(1);
    config.setDefaultMemory(256, MemoryUnit.MEGABYTE);
    config.setSiteConfig(launch.withPrefix("site."));
    config.setSystemProperties(launch.withPrefix("sys."));
    if (launch.get("root.user") != null) {
      config.setRootUserName(launch.get("root.user"));
    }
    config.setClasspathItems(launch.classPath(new File(launch.dir(), "conf")).toArray(new String[0]));
    MiniAccumuloClusterImpl cluster = new MiniAccumuloClusterImpl(config);
    launch.writeCoreSite(config.getConfDir());
    cluster.start();
    try {
      String instanceId = MacLauncher.instanceId(cluster.getZooKeepers(), cluster.getInstanceName());
      MacLauncher.answer("SITE", new File(config.getConfDir(), "accumulo-site.xml").getAbsolutePath());
      MacLauncher.answer("CLIENT_CONF", config.getClientConfFile().getAbsolutePath());
      MacLauncher.answer("INSTANCE", instanceId);
      MacLauncher.answer("TSERVER", MacLauncher.lockedTabletServer(cluster.getZooKeepers(), instanceId, "of the cluster",
          server -> true));
      MacLauncher.readyUntilStandardInputCloses();
    } finally {
      cluster.stop();
    }
    System.exit(0);
  }
}
