package io.securethrift.ingest.accumulo;

import io.securethrift.accumulo.mac.ClusterCertificates;
import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.bench.BenchEnvironment;
import io.securethrift.ingest.bench.CertificateRotation;
import io.securethrift.ingest.bench.FaultBackend;
import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.bench.FaultTarget;
import io.securethrift.ingest.bench.FaultTimeline;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.faults.FaultProxy;
import io.securethrift.ingest.workload.AcknowledgedEntries;
import io.securethrift.ingest.workload.ContinuousVerifier;
import io.securethrift.ingest.workload.Entry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.AccumuloClient;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.minicluster.ServerType;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accumulo backend's fault runs: per run a MiniAccumuloCluster in the mode's security, Accumulo's own client in
 * this JVM writing through Accumulo's {@code BatchWriter} (which does its own retrying), and the fault proxy in front
 * of the tablet server. The tablet server registers the proxy's address in ZooKeeper ({@link AdvertisedTabletServer}),
 * so the client and the manager reach it through the proxy without knowing, as they would through a bad network.
 *
 * <ul>
 *   <li>{@code restart}: the tablet server is killed with SIGKILL and started again; its tablets come back once the
 *       manager declares it dead and its write-ahead log was recovered.</li>
 *   <li>{@code rotate} (TLS modes): each step's files are put in place and every server process restarted in turn,
 *       since Accumulo's servers read their stores only when they start; the client reads them for every connection.
 *   </li>
 *   <li>{@code expire} and {@code kdc} (SASL modes): as on the embedded backend, with the renewal and re-login of
 *       Hadoop's UGI in the servers and of Accumulo's client in this JVM.</li>
 *   <li>{@code net}: as on the embedded backend; the manager's connections to the tablet server go through the proxy
 *       too.</li>
 * </ul>
 */
final class AccumuloFaults implements FaultBackend {
  private static final Logger LOG = LoggerFactory.getLogger(AccumuloFaults.class);
  /**
   * Ticket lifetime of the {@code expire} runs: short enough to expire twice in a run. The servers' renewal threads
   * check every second and UGI may log in again after one second (Hadoop's default waits a minute between logins).
   */
  static final Duration SHORT_TICKETS = Duration.ofSeconds(5);
  /**
   * How long a tablet server's ZooKeeper lock outlives its process, and with it how long the manager takes to declare
   * a killed server dead: Accumulo's own restart tests use 15 s rather than the default 30 s.
   */
  static final String ZOOKEEPER_TIMEOUT = "15s";
  /**
   * How long Accumulo's batch writer and scanner keep retrying a tablet server that does not answer before they fail
   * the run: longer than a restart and the recovery of its log take on a loaded machine.
   */
  static final Duration CLIENT_TIMEOUT = Duration.ofMinutes(3);
  private static final String TABLE = "securethrift_faults";

  @Override
  public Optional<String> notApplicable(String mode, Fault fault) {
    BenchMode level = AccumuloModes.MODES.parse("--modes", mode);
    if (AccumuloModes.saslProvider(level)) {
      return Optional.of("the provider changes the cipher, not what a fault does to a connection: the faults of"
          + " sasl-auth-conf cover it");
    }
    return switch (fault) {
      case ROTATE -> level.tls() ? Optional.empty() : Optional.of("mode " + mode
          + " uses no certificates (rotate runs in tls-jsse and tls-conscrypt)");
      case EXPIRE, KDC -> level.sasl() ? Optional.empty() : Optional.of("mode " + mode
          + " uses no Kerberos (" + fault.token() + " runs in the sasl-* modes)");
      case TLS_ON -> Optional.of("this backend does not move its cluster's processes and batch writer to TLS one"
          + " at a time (tls-on runs on the embedded backend)");
      default -> Optional.empty();
    };
  }

  @Override
  public Duration shortTickets() {
    return SHORT_TICKETS;
  }

  @Override
  public FaultTarget start(String mode, Fault fault, Environment environment) throws IOException {
    if (environment.options().containsKey(AccumuloBackend.CLIENT_PROPERTIES)) {
      throw new ConfigException("--backend-option " + AccumuloBackend.CLIENT_PROPERTIES, "fault runs kill and"
          + " restart tablet servers, so they run on a MiniAccumuloCluster of their own, not on an existing instance;"
          + " leave the option out");
    }
    BenchEnvironment.requireOnly("accumulo", environment.options(), Set.of());
    BenchMode level = AccumuloModes.MODES.parse("--modes", mode);
    int tserverPort = freePort();
    FaultProxy proxy = FaultProxy.start(new InetSocketAddress(BenchSecurity.HOST, tserverPort), 256,
        environment.seed());
    BenchCluster cluster;
    try {
      cluster = BenchCluster.start(environment.dir().resolve("accumulo-" + mode), level, environment.security(),
          config -> tune(config, fault, tserverPort, proxy.port()), coreSite(fault));
    } catch (IOException | RuntimeException e) {
      proxy.close();
      throw e;
    }
    LOG.info("MiniAccumuloCluster for a {} run in {} started in {} ms", fault.token(), mode,
        cluster.startTime().toMillis());
    List<AutoCloseable> resources = new ArrayList<>(List.of(cluster, proxy));
    AccumuloClient client = AccumuloBackend.connect(cluster, level, hadoop(fault), resources);
    resources.add(0, client);
    try {
      client.tableOperations().create(TABLE);
      warmUp(client);
      return new Target(cluster, client, proxy, resources, environment);
    } catch (AccumuloException | AccumuloSecurityException | TableExistsException | TableNotFoundException e) {
      AccumuloTarget.closeAll(resources);
      throw new IOException("cannot create and warm up table " + TABLE + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      AccumuloTarget.closeAll(resources);
      throw e;
    }
  }

  /**
   * Writes an entry into the run's table and deletes it again, so that the run's first flush does not also pay for the
   * client's first connections, the new tablet's first lookup and the tablet server's first log; on a loaded machine
   * those took longer than a short run.
   */
  private static void warmUp(AccumuloClient client) throws TableNotFoundException, MutationsRejectedException {
    BatchWriterConfig config = new BatchWriterConfig().setTimeout(CLIENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    try (BatchWriter writer = client.createBatchWriter(TABLE, config)) {
      Mutation put = new Mutation("warm-up");
      put.put("", "", "");
      writer.addMutation(put);
      writer.flush();
      Mutation delete = new Mutation("warm-up");
      delete.putDelete("", "");
      writer.addMutation(delete);
    }
  }

  /** The fault run's changes to the mode's cluster. */
  private static void tune(MiniAccumuloConfigImpl config, Fault fault, int tserverPort, int proxyPort) {
    config.setProperty(Property.INSTANCE_ZK_TIMEOUT, ZOOKEEPER_TIMEOUT);
    // The tablet server listens where the proxy forwards to, the same port after every restart, and fails rather than
    // take another one.
    config.setProperty(Property.TSERV_CLIENTPORT, Integer.toString(tserverPort));
    config.setProperty(Property.TSERV_PORTSEARCH, "false");
    config.setServerClass(ServerType.TABLET_SERVER, AdvertisedTabletServer.class);
    Map<String, String> system = config.getSystemProperties();
    system.put(AdvertisedTabletServer.ADVERTISE, BenchSecurity.HOST + ":" + proxyPort);
    config.setSystemProperties(system);
    if (fault == Fault.EXPIRE) {
      config.setProperty(Property.GENERAL_KERBEROS_RENEWAL_PERIOD, "1s");
    }
  }

  /** The servers' Hadoop settings. */
  private static Map<String, String> coreSite(Fault fault) {
    Map<String, String> site = new HashMap<>();
    // Hadoop's default local file system checksums through a buffer that hflush and hsync do not empty, so a killed
    // tablet server could lose log entries it acknowledged; Accumulo's own durability tests use the raw one too.
    site.put("fs.file.impl", RawLocalFileSystem.class.getName());
    site.putAll(hadoop(fault));
    return site;
  }

  /** UGI's settings, in the servers and in this JVM. */
  private static Map<String, String> hadoop(Fault fault) {
    return fault == Fault.EXPIRE ? Map.of("hadoop.kerberos.min.seconds.before.relogin", "1") : Map.of();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** One run's cluster, client and proxy. */
  private static final class Target implements FaultTarget {
    private final BenchCluster cluster;
    private final AccumuloClient client;
    private final FaultProxy proxy;
    private final List<AutoCloseable> resources;
    private final Environment environment;
    private final AcknowledgedEntries acknowledged = new AcknowledgedEntries();
    /** How long each add-and-flush cycle of the ingest took, in nanoseconds. */
    private final List<Long> cycles = new ArrayList<>();
    private CertificateRotation rotation;

    Target(BenchCluster cluster, AccumuloClient client, FaultProxy proxy, List<AutoCloseable> resources,
        Environment environment) {
      this.cluster = cluster;
      this.client = client;
      this.proxy = proxy;
      this.resources = resources;
      this.environment = environment;
    }

    @Override
    public FaultProxy proxy() {
      return proxy;
    }

    @Override
    public IngestResult ingest(IngestOptions options) throws IOException {
      long[] cycleStart = {System.nanoTime()};
      return AccumuloTarget.write(client, TABLE, options, Optional.of(CLIENT_TIMEOUT), new MutationSink.Watcher() {
        @Override
        public void added(Entry entry) {
          acknowledged.add(entry);
        }

        @Override
        public void flushed() {
          acknowledged.acknowledge();
          long now = System.nanoTime();
          synchronized (cycles) {
            cycles.add(now - cycleStart[0]);
          }
          cycleStart[0] = now;
        }
      });
    }

    /**
     * Entries acknowledged: the proxy's bytes would not do, since the manager's and the other servers' calls to the
     * tablet server go through it too and move while the ingest waits.
     */
    @Override
    public long progress() {
      return acknowledged.acknowledged();
    }

    @Override
    public void killAndRestartServer() throws IOException, InterruptedException {
      cluster.killAndRestartTabletServers();
    }

    @Override
    public void rotate(CertificateRotation.Step step, FaultTimeline timeline) throws IOException {
      if (rotation == null) {
        ClusterCertificates certificates = cluster.certificates().orElseThrow(() -> new IllegalStateException(
            "rotate runs only in the TLS modes, which have certificates"));
        rotation = new CertificateRotation(new CertificateRotation.Stores(certificates.ca(),
            certificates.serverKeyStore(), certificates.clientKeyStore(), certificates.trustStore(),
            environment.security().storePassword(), ClusterCertificates::serverCertificate,
            ClusterCertificates::clientCertificate), environment.dir().resolve("rotation"));
      }
      rotation.apply(step);
      cluster.restartServers();
    }

    /**
     * Accumulo's batch writer retries and reconnects inside, and counts neither where a caller can read it (its
     * statistics, resends included, are logged at TRACE when it closes); what a caller sees is how long its flushes
     * are held up. The time lost is that: the time each add-and-flush cycle took beyond the run's typical cycle (the
     * lower median, so that a short run of two cycles, one of them held up, still measures the hold-up), summed.
     */
    @Override
    public Cost cost() {
      long[] sorted;
      synchronized (cycles) {
        sorted = cycles.stream().mapToLong(Long::longValue).sorted().toArray();
      }
      if (sorted.length == 0) {
        return Cost.timeLostOnly(0);
      }
      long typical = sorted[(sorted.length - 1) / 2];
      return Cost.timeLostOnly(Arrays.stream(sorted).map(c -> Math.max(0, c - typical)).sum());
    }

    /** Scans the table back through Accumulo's client: the verify counts, and the acknowledged entries it holds. */
    @Override
    public Check verify() throws IOException {
      ContinuousVerifier verifier = new ContinuousVerifier();
      AcknowledgedEntries.TableCheck check = acknowledged.check();
      AccumuloTarget.scan(client, TABLE, Optional.of(CLIENT_TIMEOUT), entry -> {
        verifier.add(entry);
        check.add(entry);
      });
      return new Check(check.found(), verifier.result());
    }

    @Override
    public void close() {
      AccumuloTarget.closeAll(resources);
    }
  }
}
