package io.securethrift.accumulo.mac;

import java.nio.file.Path;
import java.util.Map;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * Starts every server JVM of a MiniAccumuloCluster with a security properties file, as an operator installs a drop-in
 * provider with {@code -Djava.security.properties} in {@code accumulo-env.sh}: MAC 2.1.4 passes its system properties
 * to each child (ZooKeeper, Initialize, manager, tablet servers, gc), whose class path is this JVM's and so already
 * holds securethrift's providers (the Conscrypt drop-in, the SASL provider).
 */
public final class ServerSecurityFile {
  private ServerSecurityFile() {}

  /** Names {@code file} (one {@code DropInSecurityFile} wrote) in the servers' options. */
  public static void install(MiniAccumuloConfigImpl config, Path file) {
    Map<String, String> system = config.getSystemProperties();
    system.put("java.security.properties", file.toString());
    config.setSystemProperties(system);
  }
}
