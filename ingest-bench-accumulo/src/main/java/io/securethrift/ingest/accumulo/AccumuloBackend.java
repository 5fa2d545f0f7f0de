package io.securethrift.ingest.accumulo;

import io.securethrift.accumulo.AccumuloSecurityConfig;
import io.securethrift.core.ConfigException;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.ModeSet;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.bench.BenchEnvironment;
import io.securethrift.ingest.bench.FaultBackend;
import io.securethrift.ingest.bench.IngestBackend;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.accumulo.core.client.Accumulo;
import org.apache.accumulo.core.client.AccumuloClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code ingest-bench --backend accumulo} backend: the continuous-ingest workload written through Accumulo's own
 * {@code BatchWriter} and scanned back with Accumulo's {@code Scanner}, so the numbers include Accumulo's client,
 * tablet server and its own Thrift security (JSSE TLS, Hadoop SASL), not securethrift's.
 *
 * <p>By default every mode gets its own Accumulo 2.1 MiniAccumuloCluster (about 1.3 GB and 15 s each), configured
 * with the benchmark's certificates and KDC, and the tablet server's CPU and I/O are read from its process. With
 * {@code --backend-option client.properties=<path>} the modes run against the existing instance that file names
 * instead; its security must match each mode, and the server's CPU is unknown (so is the CPU overhead).
 *
 * <p>Mode {@code sasl-auth-conf-provider} starts every server with {@code SecureThriftSaslProvider}'s security file
 * and installs the provider in this JVM until the run ends; with an existing instance, its servers must have it
 * already. Either way the run fails unless Accumulo's client settled AES-GCM privacy on some connection.
 */
public final class AccumuloBackend implements IngestBackend {
  /** The backend option naming an existing instance's {@code accumulo-client.properties}. */
  public static final String CLIENT_PROPERTIES = "client.properties";
  private static final Logger LOG = LoggerFactory.getLogger(AccumuloBackend.class);
  private static final String TABLE_PREFIX = "securethrift_ci_";

  @Override
  public String name() {
    return "accumulo";
  }

  @Override
  public ModeSet modes() {
    return AccumuloModes.MODES;
  }

  @Override
  public Optional<FaultBackend> faults() {
    return Optional.of(new AccumuloFaults());
  }

  @Override
  public Target start(String mode, BenchEnvironment environment) throws IOException {
    environment.requireOnly(name(), Set.of(CLIENT_PROPERTIES));
    BenchMode level = AccumuloModes.MODES.parse("--modes", mode);
    Optional<String> file = environment.option(CLIENT_PROPERTIES);
    Target target = file.isPresent() ? existing(level, Path.of(file.get())) : miniCluster(level, environment);
    if (AccumuloModes.saslProvider(level)) {
      // Installed once the cluster is up, until the run ends (it is this JVM's, shared by every mode's client):
      // a Kerberos mode's client then runs the provider's mechanism, which gives servers without it standard GSS
      // wrap tokens through the same GSS-API calls as the JDK's.
      return new AesGcmTarget(target, SecureThriftSaslProvider.install());
    }
    return target;
  }

  private static Target existing(BenchMode level, Path file) throws IOException {
    String key = "--backend-option " + CLIENT_PROPERTIES;
    if (!Files.isReadable(file)) {
      throw new ConfigException(key, file + " cannot be read");
    }
    AccumuloModes.mismatch(level, AccumuloSecurityConfig.fromClientProperties(file)).ifPresent(why -> {
      throw new ConfigException(key, why + " (" + file + ")");
    });
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      properties.load(in);
    }
    List<AutoCloseable> resources = new ArrayList<>();
    if (level.sasl()) {
      resources.add(HadoopKerberosClient.login(properties));
    }
    AccumuloClient client = connect(() -> Accumulo.newClient().from(properties).build(), resources);
    return new AccumuloTarget(tablePrefix(level), client, ProcessSample::unknown, resources);
  }

  private static Target miniCluster(BenchMode level, BenchEnvironment environment) throws IOException {
    BenchCluster cluster = BenchCluster.start(environment.workDir().resolve("accumulo-" + level),
        level, environment.security());
    LOG.info("MiniAccumuloCluster for {} started in {} ms", level, cluster.startTime().toMillis());
    List<AutoCloseable> resources = new ArrayList<>(List.of(cluster));
    AccumuloClient client = connect(cluster, level, Map.of(), resources);
    return new AccumuloTarget(tablePrefix(level), client, cluster::tabletServerSample, resources);
  }

  /**
   * Connects Accumulo's client to {@code cluster}, logging it in with Kerberos first in the Kerberized levels (with
   * {@code hadoop} settings for UGI); the login joins {@code resources}, all of which are closed if this fails.
   */
  static AccumuloClient connect(BenchCluster cluster, BenchMode level, Map<String, String> hadoop,
      List<AutoCloseable> resources) throws IOException {
    if (level.sasl()) {
      try {
        resources.add(0, HadoopKerberosClient.login(cluster.clientProperties(), hadoop));
      } catch (IOException | RuntimeException e) {
        AccumuloTarget.closeAll(resources);
        throw e;
      }
    }
    return connect(() -> Accumulo.newClient().from(cluster.clientProperties()).build(), resources);
  }

  /** Builds the client, closing what was started for it if that fails (a bad keytab, an unreachable instance). */
  private static AccumuloClient connect(Supplier<AccumuloClient> build, List<AutoCloseable> resources) {
    try {
      return build.get();
    } catch (RuntimeException e) {
      AccumuloTarget.closeAll(resources);
      throw e;
    }
  }

  /** One table name per mode, so modes sharing an existing instance never touch each other's table. */
  private static String tablePrefix(BenchMode level) {
    return TABLE_PREFIX + level.name().replace('-', '_') + "_";
  }

  /** A target whose verification also checks that Accumulo's client in this JVM negotiated AES-GCM privacy. */
  private static final class AesGcmTarget implements Target {
    private final Target target;
    /** Whether this target installed the provider, and so removes it when closed. */
    private final boolean installed;

    AesGcmTarget(Target target, boolean installed) {
      this.target = target;
      this.installed = installed;
    }

    @Override
    public void reset() throws IOException {
      target.reset();
    }

    @Override
    public IngestResult ingest(IngestOptions options) throws IOException {
      return target.ingest(options);
    }

    @Override
    public TargetSample sample() throws IOException {
      return target.sample();
    }

    @Override
    public VerifyResult verify() throws IOException {
      VerifyResult result = target.verify();
      if (SecureThriftSaslProvider.negotiations("auth-conf/aes-gcm") == 0) {
        throw new IllegalStateException("Accumulo's client never settled AES-GCM privacy with the tablet server:"
            + " the servers run without SecureThriftSaslProvider's security file");
      }
      return result;
    }

    @Override
    public void close() {
      try {
        target.close();
      } finally {
        if (installed) {
          Security.removeProvider(SecureThriftSaslProvider.NAME);
        }
      }
    }
  }
}
