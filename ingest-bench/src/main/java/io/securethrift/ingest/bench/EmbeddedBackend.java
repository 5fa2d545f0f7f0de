package io.securethrift.ingest.bench;

import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.ModeSet;
import io.securethrift.harness.ProcessSample;
import io.securethrift.harness.TargetSample;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.workload.VerifyResult;
import io.securethrift.sasl.SaslProviderDropIn;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The default backend: per security level, an ingest server JVM (the embedded sorted table on the environment's
 * server model) and a client JVM driving it, so server and client CPU, I/O and GC are measured apart.
 */
public final class EmbeddedBackend implements IngestBackend {
  @Override
  public String name() {
    return "embedded";
  }

  /**
   * The modes, in the order of Accumulo's published table; every one runs the same server model, only the security
   * layer differs. {@code sasl-auth-conf-provider} is auth-conf through libthrift's own SASL transports, each worker
   * JVM started with {@code SecureThriftSaslProvider}'s security file and nothing else: what an unmodified Accumulo
   * cluster gets from the provider (the nonblocking server model has no libthrift form, so there only the client is
   * libthrift's). {@code sasl-auth-libthrift} is auth through the same transports and JVM options: SASL frames with
   * nothing wrapped, so that what libthrift's transports cost can be told from what the provider's cipher costs.
   */
  static final ModeSet MODES = ModeSet.of("the embedded backend", TLS_ENGINE, "none", "tls-jsse", "tls-conscrypt",
      "tls-openssl", "sasl-auth", "sasl-auth-int", "sasl-auth-conf", "sasl-auth-conf-gcm", "sasl-auth-conf-provider",
      "sasl-auth-libthrift", "sasl-over-tls");
  private static final BenchMode BASELINE = MODES.parse("mode", "none");

  @Override
  public ModeSet modes() {
    return MODES;
  }

  @Override
  public Optional<FaultBackend> faults() {
    return Optional.of(new EmbeddedFaults());
  }

  @Override
  public Target start(String mode, BenchEnvironment environment) throws IOException {
    environment.requireOnly(name(), Set.of());
    BenchMode level = MODES.parse("--modes", mode);
    Path work = environment.workDir();
    Path serverProps = writeConfig(work.resolve(mode + "-server.properties"),
        environment.security().config(level, true).build());
    Path clientProps = writeConfig(work.resolve(mode + "-client.properties"),
        environment.security().config(level, false).build());
    // Every mode but the baseline also runs the baseline in its own two JVMs (see WorkerProtocol.BASELINE).
    boolean paired = level.security() != SecurityMode.NONE;
    Path baselineServer = paired ? writeConfig(work.resolve(mode + "-baseline-server.properties"),
        BenchSecurity.base(SecurityMode.NONE).build()) : null;
    String transports = level.onLibthrift() ? ServerWorker.LIBTHRIFT_SASL : ServerWorker.SECURETHRIFT;
    List<String> serverArgs = new ArrayList<>(List.of(serverProps.toString(), environment.server().token(),
        transports, paired ? baselineServer.toString() : ServerWorker.NO_BASELINE));
    if (environment.writeAheadLog()) {
      serverArgs.add(work.resolve(mode + ".wal").toString());
    }
    Path krb5Conf = environment.security().krb5Conf();
    WorkerHeap heap = WorkerHeap.forShare(environment.memoryPerTarget());
    // The server's heap has one size (WorkerHeap's): it collects between iterations (see ServerWorker), and a heap
    // that could shrink did so then, and grew again during a later iteration. With 512 MB to 1 GB the server JVMs grew
    // to some 700 MB in the same iteration of each (their ninth), and the kernel's work of handing them the memory,
    // 400 to 600 ms of system time, fell on that iteration's turns: the largest outliers of a run's CPU ratios.
    // The provider goes in as an operator puts it in: the security file on the command line, nothing in the code.
    List<String> provider = level.onLibthrift() ? List.of("-Djava.security.properties="
        + DropInSecurityFile.write(work.resolve(mode + ".security"), List.of(SaslProviderDropIn.NAME))) : List.of();
    String serverHeap = heap.serverMb() + "m";
    ChildJvm server = worker(mode + " server", ServerWorker.class, krb5Conf, serverArgs,
        Stream.concat(Stream.of("-Xms" + serverHeap, "-Xmx" + serverHeap), provider.stream()).toList());
    try {
      LineRecord ready = server.answer();
      List<String> clientArgs = new ArrayList<>(List.of(clientProps.toString(), transports, BenchSecurity.HOST,
          ready.get("port")));
      if (paired) {
        Path baselineClient = writeConfig(work.resolve(mode + "-baseline-client.properties"),
            BenchSecurity.base(SecurityMode.NONE).build());
        clientArgs.addAll(List.of(baselineClient.toString(), ready.get(WorkerProtocol.BASELINE_PORT)));
      }
      ChildJvm client = worker(mode + " client", ClientWorker.class, krb5Conf, clientArgs,
          Stream.concat(Stream.of("-Xmx" + heap.clientMb() + "m"), provider.stream()).toList());
      return new WorkerTarget(server, client, level, paired, false);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private static ChildJvm worker(String name, Class<?> main, Path krb5Conf, List<String> args,
      List<String> jvmOptions) {
    // The workers' handshakes are the benchmark's own: their audit lines (INFO in the launcher's logging) would bury
    // the progress and the results, so only the audit's warnings reach the output. The JIT compiler threads live as
    // long as the JVM, so that the CPU they used is still there to be counted (see ProcessSample#jitNanos).
    return ChildJvm.builder(main).name(name).jvmOptions(jvmOptions)
        .jvmOptions(List.of("-Dorg.slf4j.simpleLogger.log." + HandshakeAudit.LOGGER_NAME + "=warn",
            ProcessSample.KEEP_COMPILER_THREADS))
        .krb5Conf(krb5Conf).args(args).talk().start();
  }

  /** Writes a configuration for a worker, readable only by this user since it holds store passwords. */
  static Path writeConfig(Path file, SecurityConfig config) throws IOException {
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Properties p = new Properties();
    p.putAll(config.toProperties());
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, null);
    }
    return file;
  }

  /**
   * Drives a server and a client worker JVM by their line protocol (see {@link WorkerProtocol}). The server resets
   * and verifies its own table: a scan back over the secured connection would cost two to three times the ingest it
   * checks, and the ingest is what is measured. The same class drives the workers' baseline, with every command
   * marked for it.
   */
  private static final class WorkerTarget implements Target {
    private final ChildJvm server;
    private final ChildJvm client;
    private final BenchMode level;
    /** Whether this drives the workers' baseline rather than their secured server. */
    private final boolean isBaseline;
    /** The workers' baseline, when they run one and this is not it. */
    private final WorkerTarget baseline;
    /** What the last ingest wrote, which the server must have received entry for entry. */
    private long written;

    WorkerTarget(ChildJvm server, ChildJvm client, BenchMode level, boolean paired, boolean isBaseline) {
      this.server = server;
      this.client = client;
      this.level = level;
      this.isBaseline = isBaseline;
      this.baseline = paired ? new WorkerTarget(server, client, BASELINE, false, true) : null;
    }

    private LineRecord command(String kind) {
      return to(LineRecord.of(kind));
    }

    private LineRecord to(LineRecord command) {
      return isBaseline ? WorkerProtocol.toBaseline(command) : command;
    }

    @Override
    public void reset() throws IOException {
      server.call(command(WorkerProtocol.RESET));
      written = 0;
    }

    @Override
    public IngestResult ingest(IngestOptions o) throws IOException {
      IngestResult result = WorkerProtocol.result(client.call(to(WorkerProtocol.ingest(o))));
      written += result.entries();
      return result;
    }

    @Override
    public Optional<Target> baseline() {
      return Optional.ofNullable(baseline);
    }

    @Override
    public boolean takesTurns() {
      return baseline != null;
    }

    @Override
    public List<TurnAccount> ingestInTurns(IngestOptions o, long turnEntries, boolean baselineFirst)
        throws IOException {
      LineRecord answer = client.call(WorkerProtocol.ingestInTurns(o, turnEntries, server.process().pid(),
          baselineFirst));
      TurnAccount secured = WorkerProtocol.securedSide(answer);
      TurnAccount own = WorkerProtocol.baselineSide(answer);
      written += secured.result().entries();
      baseline.written += own.result().entries();
      return List.of(secured, own);
    }

    @Override
    public TargetSample sample() throws IOException {
      LineRecord clientGc = client.call(LineRecord.of(WorkerProtocol.SAMPLE));
      LineRecord serverGc = server.call(LineRecord.of(WorkerProtocol.SAMPLE));
      return new TargetSample(WorkerProtocol.sample(client.process().pid(), clientGc),
          WorkerProtocol.sample(server.process().pid(), serverGc));
    }

    @Override
    public VerifyResult verify() throws IOException {
      LineRecord answer = server.call(command(WorkerProtocol.VERIFY));
      long received = WorkerProtocol.received(answer);
      if (received != written) {
        throw new IllegalStateException("the server received " + received + " entries since its reset but the client"
            + " wrote " + written + ": entries were lost or duplicated on the way in");
      }
      if (level.aesGcm() && WorkerProtocol.aesGcmNegotiations(answer) == 0) {
        throw new IllegalStateException("mode " + level + " ran, but no connection to its server settled on AES-GCM"
            + " privacy: its figures would be another mode's");
      }
      return WorkerProtocol.verified(answer);
    }

    @Override
    public void close() {
      if (isBaseline) {
        return;
      }
      try {
        client.close();
      } finally {
        server.close();
      }
    }
  }
}
