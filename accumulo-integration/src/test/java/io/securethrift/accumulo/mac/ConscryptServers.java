package io.securethrift.accumulo.mac;

import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;

/**
 * Installs the Conscrypt drop-in ({@link ConscryptFirstProvider}) in every server JVM of a MiniAccumuloCluster, as an
 * operator would with {@code -Djava.security.properties}: MAC 2.1.4 passes its system properties to each child
 * (ZooKeeper, Initialize, manager, tablet servers, gc), whose class path already holds the drop-in and Conscrypt.
 * With SSL on, each server's Thrift server socket is then Conscrypt's, and each prints the drop-in's line on
 * standard error.
 */
public final class ConscryptServers {
  private ConscryptServers() {}

  /** Writes the shipped security file into {@code dir} and names it in the servers' system properties. */
  public static void install(MiniAccumuloConfigImpl config, Path dir) {
    Path file;
    try {
      file = ConscryptFirstProvider.writeSecurityFile(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the Conscrypt drop-in's security file into " + dir, e);
    }
    Map<String, String> system = config.getSystemProperties();
    system.put("java.security.properties", file.toString());
    config.setSystemProperties(system);
  }
}
