package io.securethrift.accumulo.ingest;

import io.securethrift.benchstats.ProcessSample;
import io.securethrift.ingest.bench.BenchSecurity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Properties;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.minicluster.ServerType;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloClusterImpl;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.apache.accumulo.miniclusterImpl.ProcessReference;

/**
 * One security level's Accumulo 2.1 MiniAccumuloCluster (ZooKeeper, manager, one tablet server, gc as child JVMs),
 * laid out under the benchmark's work directory, which the harness deletes after the run.
 */
final class BenchCluster implements AutoCloseable {
  /** The tablet server holds the whole table in memory between minor compactions; the other processes idle. */
  private static final int TSERVER_MEMORY_MB = 768;
  private static final int OTHER_MEMORY_MB = 256;

  private final MiniAccumuloClusterImpl cluster;
  private final Duration startTime;

  private BenchCluster(MiniAccumuloClusterImpl cluster, Duration startTime) {
    this.cluster = cluster;
    this.startTime = startTime;
  }

  static BenchCluster start(Path dir, AccumuloMode mode, BenchSecurity security) throws IOException {
    Path stores = Files.createDirectories(dir.resolve("stores"));
    Path clusterDir = dir.resolve("cluster");
    // The root password only protects a throw-away instance; it is random so that no fixed secret ships.
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    MiniAccumuloConfigImpl config = new MiniAccumuloConfigImpl(clusterDir.toFile(), HexFormat.of().formatHex(secret));
    config.setNumTservers(1);
    config.setDefaultMemory(OTHER_MEMORY_MB, MemoryUnit.MEGABYTE);
    config.setMemory(ServerType.TABLET_SERVER, TSERVER_MEMORY_MB, MemoryUnit.MEGABYTE);
    mode.configure(config, security, stores);
    MiniAccumuloClusterImpl cluster = new MiniAccumuloClusterImpl(config);
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
    return new BenchCluster(cluster, Duration.ofNanos(System.nanoTime() - begin));
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
