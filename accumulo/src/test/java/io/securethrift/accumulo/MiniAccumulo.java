package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.testkit.Directories;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.Accumulo;
import org.apache.accumulo.core.client.AccumuloClient;
import org.apache.accumulo.core.client.security.tokens.KerberosToken;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.clientImpl.Credentials;
import org.apache.accumulo.core.data.InstanceId;
import org.apache.accumulo.core.securityImpl.thrift.TCredentials;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloClusterImpl;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.apache.thrift.TException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Accumulo 2.1 instance (MiniAccumuloCluster: ZooKeeper, manager, one tablet server and gc as child JVMs) in a
 * private directory that {@link #close()} deletes. Start at most one per test class; they need about 1.3 GB.
 */
final class MiniAccumulo implements AutoCloseable {
  static final String ROOT_PASSWORD = "root-secret";
  private static final byte KERBEROS_TOKEN_VERSION = 1;
  private static final Logger LOG = LoggerFactory.getLogger(MiniAccumulo.class);

  private final Path dir;
  private final MiniAccumuloClusterImpl cluster;
  private final Duration startTime;
  private final AccumuloClient client;

  private MiniAccumulo(Path dir, MiniAccumuloClusterImpl cluster, Duration startTime, AccumuloClient client) {
    this.dir = dir;
    this.cluster = cluster;
    this.startTime = startTime;
    this.client = client;
  }

  /** Starts a cluster; {@code configure} sets site and client properties before the first process starts. */
  static MiniAccumulo start(Consumer<MiniAccumuloConfigImpl> configure) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("securethrift-mac-");
    MiniAccumuloClusterImpl cluster = null;
    try {
      MiniAccumuloConfigImpl config = new MiniAccumuloConfigImpl(dir.toFile(), ROOT_PASSWORD);
      config.setNumTservers(1);
      config.setDefaultMemory(256, MemoryUnit.MEGABYTE);
      configure.accept(config);
      cluster = new MiniAccumuloClusterImpl(config);
      long begin = System.nanoTime();
      cluster.start();
      Duration started = Duration.ofNanos(System.nanoTime() - begin);
      AccumuloClient client = Accumulo.newClient().from(cluster.getClientProperties())
          .as("root", new PasswordToken(ROOT_PASSWORD)).build();
      return new MiniAccumulo(dir, cluster, started, client);
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (cluster != null) {
        cluster.stop();
      }
      logTails(dir.resolve("logs"));
      Directories.deleteRecursively(dir);
      throw e;
    }
  }

  Duration startTime() {
    return startTime;
  }

  /** The cluster's own {@code accumulo.properties}, as its servers read it. */
  Path accumuloProperties() {
    return Path.of(cluster.getAccumuloPropertiesPath());
  }

  /** The cluster's own {@code accumulo-client.properties}. */
  Path clientProperties() {
    return Path.of(cluster.getClientPropsPath());
  }

  Map<String, String> siteConfig() {
    return cluster.getConfig().getSiteConfig();
  }

  /** This JVM's Accumulo client, logged in as root with MAC's client properties. */
  AccumuloClient client() {
    return client;
  }

  /**
   * What the tablet servers wrote to standard error so far (MAC 2.1.4 redirects each child's to
   * {@code logs/<main class>_<n>.err}).
   */
  String tabletServerStandardError() throws IOException {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.list(cluster.getConfig().getLogDir().toPath())) {
      for (Path file : files.filter(p -> p.getFileName().toString().matches("TabletServer_.*\\.err"))
          .collect(Collectors.toList())) {
        text.append(Files.readString(file, StandardCharsets.ISO_8859_1));
      }
    }
    return text.toString();
  }

  /** Tablet server addresses ({@code host:port}) as registered in ZooKeeper. */
  List<String> tabletServers() {
    return client.instanceOperations().getTabletServers();
  }

  InstanceId instanceId() {
    return client.instanceOperations().getInstanceId();
  }

  TCredentials credentials(String user, String password) {
    return new Credentials(user, new PasswordToken(password)).toThrift(instanceId());
  }

  /**
   * Credentials naming a Kerberos principal, as Accumulo's clients send them over SASL. A {@code KerberosToken}
   * serializes to its version number alone; building one needs a Hadoop login in this JVM, so the bytes are written
   * directly. The server takes the identity from the SASL session and checks that it equals {@code principal}.
   */
  TCredentials kerberosCredentials(String principal) {
    return new TCredentials(principal, KerberosToken.CLASS_NAME,
        ByteBuffer.wrap(new byte[] {0, 0, 0, KERBEROS_TOKEN_VERSION}), instanceId().canonical());
  }

  /** Asserts that a securethrift client with {@code config} cannot call the tablet server. */
  void assertTabletServerRefuses(SecurityConfig config) {
    try (ClientTransportFactory factory = ClientTransportFactory.create(config)) {
      assertThrows(TException.class, () -> {
        try (AccumuloRpc rpc = AccumuloRpc.open(factory, tabletServers().get(0))) {
          rpc.client().getInstanceId();
        }
      });
    }
  }

  @Override
  public void close() throws IOException {
    try {
      client.close();
      cluster.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping MiniAccumuloCluster", e);
    } finally {
      Directories.deleteRecursively(dir);
    }
  }

  /** The directory is deleted on failure, so CI keeps only what the log says: the end of each process's output. */
  private static void logTails(Path logs) throws IOException {
    if (!Files.isDirectory(logs)) {
      return;
    }
    try (Stream<Path> files = Files.list(logs)) {
      for (Path f : files.sorted().collect(Collectors.toList())) {
        List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
        LOG.error("{} (last 40 lines):\n{}", f.getFileName(),
            String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
      }
    }
  }
}
