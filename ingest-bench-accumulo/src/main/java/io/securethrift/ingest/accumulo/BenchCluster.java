package io.securethrift.ingest.accumulo;

import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.ProcessSample;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.minicluster.ServerType;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloClusterControl;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloClusterImpl;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.apache.accumulo.miniclusterImpl.ProcessReference;
import org.apache.hadoop.conf.Configuration;

/**
 * One security level's Accumulo 2.1 MiniAccumuloCluster (ZooKeeper, manager, one tablet server, gc as child JVMs),
 * laid out under the benchmark's work directory, which the harness deletes after the run.
 */
final class BenchCluster implements AutoCloseable {
  /** The tablet server holds the whole table in memory between minor compactions; the other processes idle. */
  private static final int TSERVER_MEMORY_MB = 768;
  private static final int OTHER_MEMORY_MB = 256;
  /**
   * How long ZooKeeper may take to answer after its JVM was started: MiniAccumuloCluster's 20 s were not enough on a
   * 2-core machine shared with other builds (load average above 20), where the cluster then failed to start.
   */
  private static final long ZOOKEEPER_STARTUP_MILLIS = 90_000;

  private final MiniAccumuloClusterImpl cluster;
  private final Duration startTime;
  private final Optional<ClusterCertificates> certificates;

  private BenchCluster(MiniAccumuloClusterImpl cluster, Duration startTime,
      Optional<ClusterCertificates> certificates) {
    this.cluster = cluster;
    this.startTime = startTime;
    this.certificates = certificates;
  }

  static BenchCluster start(Path dir, BenchMode mode, BenchSecurity security) throws IOException {
    return start(dir, mode, security, config -> { }, Map.of());
  }

  /**
   * Starts a cluster with a fault run's changes.
   *
   * @param tune changes to the configuration after the mode's own (site properties, the tablet server's class)
   * @param coreSite Hadoop properties for every server's {@code core-site.xml}, added to what the mode wrote there
   */
  static BenchCluster start(Path dir, BenchMode mode, BenchSecurity security, Consumer<MiniAccumuloConfigImpl> tune,
      Map<String, String> coreSite) throws IOException {
    Path stores = Files.createDirectories(dir.resolve("stores"));
    Path clusterDir = dir.resolve("cluster");
    // The root password only protects a throw-away instance; it is random so that no fixed secret ships.
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    MiniAccumuloConfigImpl config = new MiniAccumuloConfigImpl(clusterDir.toFile(), HexFormat.of().formatHex(secret));
    config.setNumTservers(1);
    config.setZooKeeperStartupTime(ZOOKEEPER_STARTUP_MILLIS);
    config.setDefaultMemory(OTHER_MEMORY_MB, MemoryUnit.MEGABYTE);
    config.setMemory(ServerType.TABLET_SERVER, TSERVER_MEMORY_MB, MemoryUnit.MEGABYTE);
    Optional<ClusterCertificates> certificates = AccumuloModes.configure(mode, config, security, stores);
    tune.accept(config);
    MiniAccumuloClusterImpl cluster = new MiniAccumuloClusterImpl(config);
    addToCoreSite(config.getConfDir().toPath(), coreSite);
    long begin = System.nanoTime();
    try {
      cluster.start();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopQuietly(cluster);
      throw new IOException("interrupted while starting MiniAccumuloCluster for " + mode, e);
    } catch (IOException | RuntimeException e) {
      stopQuietly(cluster);
      throw new IOException("MiniAccumuloCluster for " + mode + " did not start (logs in " + clusterDir.resolve("logs")
          + "): " + e.getMessage(), e);
    }
    return new BenchCluster(cluster, Duration.ofNanos(System.nanoTime() - begin), certificates);
  }

  /**
   * Adds {@code properties} to the servers' {@code core-site.xml}, keeping what the mode's set-up wrote there when the
   * cluster was created (Kerberos on); the servers read it from their class path when they start.
   */
  private static void addToCoreSite(Path confDir, Map<String, String> properties) throws IOException {
    if (properties.isEmpty()) {
      return;
    }
    Path file = confDir.resolve("core-site.xml");
    Configuration site = new Configuration(false);
    if (Files.exists(file)) {
      site.addResource(file.toUri().toURL());
    }
    properties.forEach(site::set);
    Path fresh = confDir.resolve("core-site.xml.new");
    try (OutputStream out = Files.newOutputStream(fresh)) {
      site.writeXml(out);
    }
    Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The TLS levels' certificates, empty for the others. */
  Optional<ClusterCertificates> certificates() {
    return certificates;
  }

  /**
   * Kills every tablet server with SIGKILL, as a crash does (no shutdown hook, nothing flushed), and starts as many
   * again. Their tablets come back once the manager has declared the dead servers dead (their ZooKeeper locks expire)
   * and their write-ahead logs were recovered.
   */
  void killAndRestartTabletServers() throws IOException, InterruptedException {
    for (ProcessReference tserver : cluster.getProcesses().get(ServerType.TABLET_SERVER)) {
      tserver.getProcess().destroyForcibly().waitFor();
    }
    MiniAccumuloClusterControl control = cluster.getClusterControl();
    control.refreshProcesses(ServerType.TABLET_SERVER);
    control.start(ServerType.TABLET_SERVER);
  }

  /**
   * Stops each server process in turn (SIGTERM, as an operator's rolling restart does) and starts it again, so that
   * each loads its key and trust stores anew: Accumulo's servers read them once, when they start.
   */
  void restartServers() throws IOException {
    MiniAccumuloClusterControl control = cluster.getClusterControl();
    for (ServerType type : List.of(ServerType.TABLET_SERVER, ServerType.MANAGER, ServerType.GARBAGE_COLLECTOR)) {
      control.stop(type);
      control.start(type);
    }
  }

  Duration startTime() {
    return startTime;
  }

  /** The client properties MAC wrote for its root user, with the level's {@code ssl.*} or {@code sasl.*} keys. */
  Properties clientProperties() {
    return cluster.getClientProperties();
  }

  /**
   * What the tablet server process has used so far, as the OS accounts it; its GC is unknown (the process cannot be
   * asked).
   */
  ProcessSample tabletServerSample() {
    Collection<ProcessReference> tservers = cluster.getProcesses().get(ServerType.TABLET_SERVER);
    return tservers.stream().map(t -> ProcessSample.of(t.getProcess().pid())).reduce(ProcessSample::plus)
        .orElseGet(ProcessSample::unknown);
  }

  @Override
  public void close() {
    stopQuietly(cluster);
  }

  private static void stopQuietly(MiniAccumuloClusterImpl cluster) {
    try {
      cluster.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException ignored) {
      // Stopping kills the child processes; a failure here leaves nothing the harness could still act on.
    }
  }
}
