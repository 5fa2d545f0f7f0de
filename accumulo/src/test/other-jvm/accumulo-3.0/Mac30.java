import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloClusterImpl;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.apache.accumulo.tserver.TabletServer;

/**
 * Starts an Accumulo 3.0 MiniAccumuloCluster for securethrift's cross-JVM interop tests, on Accumulo 3.0's own class
 * path: 3.0 and the 2.1 jars securethrift's tests run with cannot share a JVM. Takes {@link MacLauncher}'s settings,
 * {@code client.<key>} for the client properties, and {@code tserver.<name>.site.<key>} /
 * {@code tserver.<name>.sys.<property>} for more tablet servers that run with those site overrides and system
 * properties, each from a properties file of its own. A setting that is fixed when a server starts (such as
 * {@code rpc.sasl.qop}, or the JVM's TLS provider) can so differ between tablet servers of one cluster.
 *
 * <p>Answers {@code SITE} (accumulo.properties), {@code CLIENT_PROPERTIES}, {@code INSTANCE}, {@code LOGS} (the
 * directory of every server's standard output and error), {@code TSERVER}, and {@code TSERVER.<name>} and
 * {@code SITE.<name>} for each extra tablet server.
 */
public class Mac30 {
  public static void main(String[] args) throws Exception {
    MacLauncher launch = MacLauncher.parse(args);
    MiniAccumuloConfigImpl config = new MiniAccumuloConfigImpl(launch.dir(), launch.get("root.password"));
    config.setNumTservers(1);
    config.setDefaultMemory(256, MemoryUnit.MEGABYTE);
    config.setSiteConfig(launch.withPrefix("site."));
    config.setClientProps(launch.withPrefix("client."));
    config.setSystemProperties(launch.withPrefix("sys."));
    if (launch.get("root.user") != null) {
      config.setRootUserName(launch.get("root.user"));
    }
    MiniAccumuloClusterImpl cluster = new MiniAccumuloClusterImpl(config);
    launch.writeCoreSite(config.getConfDir());
    cluster.start();
    try {
      String instanceId = MacLauncher.instanceId(cluster.getZooKeepers(), cluster.getInstanceName());
      Map<String, String> extraPorts = startExtraTabletServers(launch, cluster);
      MacLauncher.answer("SITE", cluster.getAccumuloPropertiesPath());
      MacLauncher.answer("CLIENT_PROPERTIES", cluster.getClientPropsPath());
      MacLauncher.answer("INSTANCE", instanceId);
      MacLauncher.answer("LOGS", config.getLogDir().getAbsolutePath());
      MacLauncher.answer("TSERVER", MacLauncher.lockedTabletServer(cluster.getZooKeepers(), instanceId,
          "of the cluster", server -> !extraPorts.containsValue(port(server))));
      for (Map.Entry<String, String> extra : extraPorts.entrySet()) {
        MacLauncher.answer("TSERVER." + extra.getKey(), MacLauncher.lockedTabletServer(cluster.getZooKeepers(),
            instanceId, "'" + extra.getKey() + "' on port " + extra.getValue(),
            server -> port(server).equals(extra.getValue())));
        MacLauncher.answer("SITE." + extra.getKey(), siteFile(config, extra.getKey()).getAbsolutePath());
      }
      MacLauncher.readyUntilStandardInputCloses();
    } finally {
      cluster.stop();
    }
    System.exit(0);
  }

  /**
   * Starts every extra tablet server at once, each on a port chosen here so the test can tell them apart, and returns
   * their ports by name. MAC itself starts servers on site overrides the same way: a properties file of their own
   * named by {@code -Daccumulo.properties}.
   */
  private static Map<String, String> startExtraTabletServers(MacLauncher launch, MiniAccumuloClusterImpl cluster)
      throws IOException {
    Map<String, String> ports = new TreeMap<>();
    for (String name : names(launch)) {
      String port = Integer.toString(freePort());
      Map<String, String> site = new TreeMap<>(cluster.getConfig().getSiteConfig());
      site.putAll(launch.withPrefix("tserver." + name + ".site."));
      site.put("tserver.port.client", port);
      // A clash must fail the server, not move it to a port the test does not know.
      site.put("tserver.port.search", "false");
      File file = siteFile(cluster.getConfig(), name);
      StringBuilder text = new StringBuilder();
      site.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
      Files.write(file.toPath(), text.toString().getBytes(StandardCharsets.UTF_8));
      List<String> jvm = new ArrayList<>();
      jvm.add("-Daccumulo.properties=file://" + file.getAbsolutePath());
      launch.withPrefix("tserver." + name + ".sys.").forEach((k, v) -> jvm.add("-D" + k + "=" + v));
      cluster.exec(TabletServer.class, jvm);
      ports.put(name, port);
    }
    return ports;
  }

  private static TreeSet<String> names(MacLauncher launch) {
    TreeSet<String> names = new TreeSet<>();
    launch.withPrefix("tserver.").keySet().forEach(k -> names.add(k.substring(0, k.indexOf('.'))));
    return names;
  }

  private static String port(String hostAndPort) {
    return hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1);
  }

  private static File siteFile(MiniAccumuloConfigImpl config, String name) {
    return new File(config.getConfDir(), "accumulo-tserver-" + name + ".properties");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
