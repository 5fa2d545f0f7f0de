package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.client.Connector;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.client.SwitchingConnector;
import io.securethrift.ingest.faults.FaultProxy;
import io.securethrift.ingest.server.ServerModel;
import io.securethrift.ingest.thrift.IngestService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;

/**
 * The embedded backend's fault runs: the ingest server in its own JVM with its write-ahead log, the ingest client in
 * this JVM (retrying with its {@link io.securethrift.ingest.client.RetryPolicy}), the proxy between them. Every fault
 * runs in every mode: a fault that changes nothing a mode uses (a rotation under SASL) still cuts its connections;
 * only {@code tls-on}, which ends in a mode's mutual TLS, needs a TLS mode.
 */
final class EmbeddedFaults implements FaultBackend {
  /** Ticket lifetime of the {@code expire} runs: seconds, so even a short run sees its tickets expire twice. */
  static final Duration SHORT_TICKETS = Duration.ofSeconds(2);
  /** How often the {@code rotate} runs re-read their certificate files. */
  static final Duration RELOAD = Duration.ofMillis(200);
  /** The client's read timeout in fault runs, shorter than the {@code net} run's stall so the stall times out. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
  /** Backend options with this prefix are securethrift settings for both the server and the client. */
  static final String SETTING_PREFIX = "securethrift.";

  @Override
  public Optional<String> notApplicable(String mode, Fault fault) {
    BenchMode level = EmbeddedBackend.MODES.parse("--modes", mode);
    if (level.onLibthrift()) {
      return Optional.of("its client runs in the launcher JVM, on securethrift's retrying transports");
    }
    if (fault == Fault.TLS_ON && level.security() != SecurityMode.TLS) {
      return Optional.of("tls-on moves plaintext to a mode's mutual TLS, and mode " + mode + " is not a TLS mode"
          + " (tls-on runs in tls-jsse, tls-conscrypt and tls-openssl)");
    }
    return Optional.empty();
  }

  @Override
  public Duration shortTickets() {
    return SHORT_TICKETS;
  }

  @Override
  public FaultTarget start(String mode, Fault fault, Environment environment) throws IOException {
    Map<String, String> settings = new TreeMap<>(environment.options());
    settings.keySet().removeIf(key -> !key.startsWith(SETTING_PREFIX));
    Map<String, String> others = new TreeMap<>(environment.options());
    others.keySet().removeAll(settings.keySet());
    BenchEnvironment.requireOnly("embedded", others, Set.of(SETTING_PREFIX + "*"));
    BenchMode level = EmbeddedBackend.MODES.parse("--modes", mode);
    BenchSecurity security = environment.security();
    Path dir = environment.dir();
    SecurityConfig serverConfig = tune(security.config(level, true), fault, settings).build();
    SecurityConfig client = tune(security.config(level, false), fault, settings).readTimeout(READ_TIMEOUT).build();
    Rollout rollout = null;
    if (fault == Fault.TLS_ON) {
      // The run starts in plaintext; the mode's configurations are where the roll ends.
      SecurityConfig plainClient = tune(BenchSecurity.base(SecurityMode.NONE), fault, settings)
          .readTimeout(READ_TIMEOUT).build();
      rollout = new Rollout(EmbeddedBackend.writeConfig(dir.resolve("server-unified.properties"),
          serverConfig.toBuilder().portUnification(true).build()), client, plainClient);
      serverConfig = tune(BenchSecurity.base(SecurityMode.NONE), fault, settings).build();
      client = plainClient;
    }
    Path serverProps = EmbeddedBackend.writeConfig(dir.resolve("server.properties"), serverConfig);
    ServerProcess server = new ServerProcess(security, serverProps, environment.settings().server(), dir);
    FaultProxy proxy = null;
    try {
      proxy = FaultProxy.start(new InetSocketAddress(BenchSecurity.HOST, server.port()), 256, environment.seed());
      SwitchingConnector connector = new SwitchingConnector(Connector.of(client));
      IngestClient ingest = new IngestClient(connector, BenchSecurity.HOST, proxy.port(),
          environment.settings().retry());
      return new Target(server, proxy, ingest, connector, security, dir, rollout);
    } catch (IOException | RuntimeException e) {
      if (proxy != null) {
        proxy.close();
      }
      server.close();
      throw e;
    }
  }

  /**
   * The fault run's additions to a mode's configuration, then {@code settings}: {@code securethrift.*} keys given as
   * backend options, set on both sides (a short {@code securethrift.server.connection.max.age}, for example).
   */
  private static SecurityConfig.Builder tune(SecurityConfig.Builder mode, Fault fault, Map<String, String> settings) {
    SecurityConfig config = mode.build();
    SecurityConfig.Builder b = config.toBuilder();
    settings.forEach(b::set);
    if (fault == Fault.ROTATE && config.mode().usesTls()) {
      b.tlsReloadInterval(RELOAD);
    }
    if (fault == Fault.EXPIRE && config.mode().usesSasl()) {
      // Checked often, so the renewal thread (not only a connection finding its ticket expired) logs in again.
      b.renewalPeriod(Duration.ofSeconds(1));
    }
    return b;
  }

  /**
   * Where a {@code tls-on} run goes from plaintext.
   *
   * @param unifiedServer the server's properties once it restarts: the mode's, on a unified port
   * @param tlsClient the mode's client configuration, which the client moves to
   * @param plaintextClient the configuration the client starts with, and the refused client's at the end
   */
  private record Rollout(Path unifiedServer, SecurityConfig tlsClient, SecurityConfig plaintextClient) {}

  /** The server JVM, the proxy and the client of one run. */
  private static final class Target implements FaultTarget {
    private final ServerProcess server;
    private final FaultProxy proxy;
    private final IngestClient ingest;
    private final SwitchingConnector connector;
    private final BenchSecurity security;
    private final Path dir;
    private final Rollout rollout;
    private CertificateRotation rotation;

    Target(ServerProcess server, FaultProxy proxy, IngestClient ingest, SwitchingConnector connector,
        BenchSecurity security, Path dir, Rollout rollout) {
      this.server = server;
      this.proxy = proxy;
      this.ingest = ingest;
      this.connector = connector;
      this.security = security;
      this.dir = dir;
      this.rollout = rollout;
    }

    @Override
    public FaultProxy proxy() {
      return proxy;
    }

    @Override
    public IngestResult ingest(IngestOptions options) throws IOException {
      return ingest.ingest(options);
    }

    /** Bytes forwarded: only the client talks to this server, so they move exactly when the ingest does. */
    @Override
    public long progress() {
      return proxy.forwarded();
    }

    @Override
    public void killAndRestartServer() throws IOException, InterruptedException {
      restartServer(server.properties);
    }

    private void restartServer(Path properties) throws IOException, InterruptedException {
      server.killAndRestart(properties);
      proxy.target(new InetSocketAddress(BenchSecurity.HOST, server.port()));
    }

    /**
     * The server restarts as {@link #killAndRestartServer} does, on its write-ahead log; the client's connector is
     * switched, as a client process restarted with its new configuration would open connections; the server's port
     * turns TLS only through JMX.
     */
    @Override
    public void rollTls(TlsRollout.Step step) throws IOException, InterruptedException {
      if (rollout == null) {
        throw new IllegalStateException("this run was not started for tls-on");
      }
      switch (step) {
        case UNIFY_SERVER -> restartServer(rollout.unifiedServer());
        case CLIENT_TLS -> connector.switchTo(Connector.of(rollout.tlsClient()));
        case TLS_ONLY -> server.plaintext(true);
        default -> throw new IllegalArgumentException("no such step " + step);
      }
    }

    @Override
    public TlsRollout.Port plaintextPort() throws IOException {
      return server.plaintext(false);
    }

    /** A call on a connection of a client still configured for plaintext, as a client the roll missed would make. */
    @Override
    public boolean plaintextClientServed() throws IOException {
      try (Connector plaintext = Connector.of(rollout.plaintextClient())) {
        TProtocol protocol = plaintext.open(BenchSecurity.HOST, proxy.port());
        try {
          new IngestService.Client(protocol).stats();
          return true;
        } finally {
          protocol.getTransport().close();
        }
      } catch (TException e) {
        return false;
      }
    }

    /** Both sides re-read their files every {@link #RELOAD}, on their next handshake; no restart is needed. */
    @Override
    public void rotate(CertificateRotation.Step step, FaultTimeline timeline) throws IOException {
      if (rotation == null) {
        rotation = new CertificateRotation(CertificateRotation.Stores.of(security), dir.resolve("rotation"));
      }
      rotation.apply(step);
      timeline.after(RELOAD);
    }

    @Override
    public Cost cost() {
      return Cost.of(ingest.retries());
    }

    @Override
    public Check verify() throws IOException {
      LineRecord answer = server.verify();
      return new Check(WorkerProtocol.received(answer), WorkerProtocol.verified(answer));
    }

    @Override
    public void close() {
      try {
        ingest.close();
      } finally {
        try {
          proxy.close();
        } finally {
          server.close();
        }
      }
    }
  }

  /** The server worker JVM, which the restart fault kills and starts again on the same write-ahead log. */
  private static final class ServerProcess implements AutoCloseable {
    private final BenchSecurity security;
    private final ServerModel model;
    private final Path dir;
    private Path properties;
    private ChildJvm jvm;
    private int port;
    private int starts;

    ServerProcess(BenchSecurity security, Path properties, ServerModel model, Path dir) throws IOException {
      this.security = security;
      this.properties = properties;
      this.model = model;
      this.dir = dir;
      start();
    }

    private void start() throws IOException {
      starts++;
      jvm = ChildJvm.builder(ServerWorker.class).name("fault server " + starts)
          .jvmOptions(List.of("-Xmx512m", "-Dorg.slf4j.simpleLogger.log." + HandshakeAudit.LOGGER_NAME + "=warn"))
          .krb5Conf(security.krb5Conf()).log(dir.resolve("server-" + starts + ".log"))
          .args(List.of(properties.toString(), model.token(), ServerWorker.SECURETHRIFT, ServerWorker.NO_BASELINE,
              dir.resolve("server.wal").toString())).talk().start();
      port = jvm.answer().getInt("port");
    }

    int port() {
      return port;
    }

    /**
     * SIGKILL, as a crash or an OOM killer would: no shutdown hook, no flush, only what the OS already holds; then a
     * start on the same write-ahead log with {@code next} (the same properties, or the {@code tls-on} run's new ones).
     */
    void killAndRestart(Path next) throws IOException, InterruptedException {
      jvm.process().destroyForcibly().waitFor();
      jvm.close();
      properties = next;
      start();
    }

    /** The port's plaintext account, after turning it TLS only when {@code tlsOnly}. */
    TlsRollout.Port plaintext(boolean tlsOnly) throws IOException {
      return WorkerProtocol.port(jvm.call(WorkerProtocol.plaintext(tlsOnly)));
    }

    LineRecord verify() throws IOException {
      return jvm.call(LineRecord.of(WorkerProtocol.VERIFY));
    }

    @Override
    public void close() {
      jvm.close();
    }
  }
}
