package io.securethrift.ingest.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.bench.FaultBench.Fault;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.faults.FaultProxy;
import io.securethrift.ingest.server.ServerModel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The embedded backend's fault runs: the ingest server in its own JVM with its write-ahead log, the ingest client in
 * this JVM (retrying with its {@link io.securethrift.ingest.client.RetryPolicy}), the proxy between them. Every fault
 * runs in every mode: a fault that changes nothing a mode uses (a rotation under SASL) still cuts its connections.
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
    return EmbeddedBackend.MODES.parse("--modes", mode).onLibthrift()
        ? Optional.of("its client runs in the launcher JVM, on securethrift's retrying transports")
        : Optional.empty();
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
    Path serverProps = EmbeddedBackend.writeConfig(dir.resolve("server.properties"),
        tune(security.config(level, true).build(), fault, settings).build());
    SecurityConfig client = tune(security.config(level, false).build(), fault, settings).readTimeout(READ_TIMEOUT)
        .build();
    ServerProcess server = new ServerProcess(security, serverProps, environment.settings().server(), dir);
    FaultProxy proxy = null;
    try {
      proxy = FaultProxy.start(new InetSocketAddress(BenchSecurity.HOST, server.port()), 256, environment.seed());
      IngestClient ingest = new IngestClient(client, BenchSecurity.HOST, proxy.port(),
          environment.settings().retry());
      return new Target(server, proxy, ingest, security, dir);
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
  private static SecurityConfig.Builder tune(SecurityConfig config, Fault fault, Map<String, String> settings) {
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

  /** The server JVM, the proxy and the client of one run. */
  private static final class Target implements FaultTarget {
    private final ServerProcess server;
    private final FaultProxy proxy;
    private final IngestClient ingest;
    private final BenchSecurity security;
    private final Path dir;
    private CertificateRotation rotation;

    Target(ServerProcess server, FaultProxy proxy, IngestClient ingest, BenchSecurity security, Path dir) {
      this.server = server;
      this.proxy = proxy;
      this.ingest = ingest;
      this.security = security;
      this.dir = dir;
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
      server.killAndRestart();
      proxy.target(new InetSocketAddress(BenchSecurity.HOST, server.port()));
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
    private final Path properties;
    private final ServerModel model;
    private final Path dir;
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

    /** SIGKILL, as a crash or an OOM killer would: no shutdown hook, no flush, only what the OS already holds. */
    void killAndRestart() throws IOException, InterruptedException {
      jvm.process().destroyForcibly().waitFor();
      jvm.close();
      start();
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
