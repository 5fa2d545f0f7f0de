package io.securethrift.ingest.bench;

import io.securethrift.core.HandshakeAudit;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.client.RetryCounters;
import io.securethrift.ingest.client.RetryPolicy;
import io.securethrift.ingest.faults.FaultProxy;
import io.securethrift.ingest.server.ServerModel;
import io.securethrift.ingest.workload.VerifyResult;
import io.securethrift.kdc.EmbeddedKdc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * {@code ingest-bench --faults}: continuous ingest on the embedded backend (a server JVM with its write-ahead log, the
 * client in this JVM behind a {@link FaultProxy}) while the world moves under it, one {@link Fault} per run. Each run
 * writes for a fixed time, injects its fault at set points of that time (each only once data has flowed since the
 * previous one, so every fault hits a working connection), then asks the server to verify its table. A run passes when
 * the verifier finds no undefined and no corrupt entry and the server holds at least every entry the client was told
 * was written (more is allowed: a batch resent after a lost acknowledgement is received twice, and rewriting the same
 * entry is harmless).
 */
public final class FaultBench {
  /** Ticket lifetime of the {@code expire} runs: seconds, so even a short run sees its tickets expire twice. */
  static final Duration SHORT_TICKETS = Duration.ofSeconds(2);
  /** How often the {@code rotate} runs re-read their certificate files. */
  static final Duration RELOAD = Duration.ofMillis(200);
  /** The client's read timeout in fault runs, shorter than the {@code net} run's stall so the stall times out. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
  static final Duration STALL = Duration.ofSeconds(3);

  /** What goes wrong during a run. */
  public enum Fault {
    /** The server process is killed (SIGKILL) and started again on its write-ahead log, twice. */
    RESTART,
    /** Certificates are re-issued by the same CA, then a second CA is trusted, then certificates come from it. */
    ROTATE,
    /**
     * Kerberos tickets live {@link FaultBench#SHORT_TICKETS}; connections are cut once they expired, so new ones log
     * in again.
     */
    EXPIRE,
    /** The KDC stops, connections are cut and re-made without it, then it comes back. */
    KDC,
    /** The network cuts, stalls, delays and truncates connections, then drops them at random. */
    NET;

    public String token() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The faults of a comma-separated list such as {@code restart,net}. */
    public static List<Fault> parseList(String option, List<String> tokens) {
      return tokens.stream().map(String::trim).map(t -> Arrays.stream(values()).filter(f -> f.token().equals(t))
          .findFirst().orElseThrow(() -> new IllegalArgumentException(option + ": unknown fault '" + t + "'; known: "
              + Arrays.stream(values()).map(Fault::token).collect(Collectors.joining(",")))))
          .collect(Collectors.toList());
    }
  }

  /**
   * How long a run writes and how.
   *
   * @param runTime how long the client writes (to its next flush); faults land at fractions of it
   * @param flushInterval entries between flushes
   * @param batchMemory the batch writer's memory
   * @param writeThreads the batch writer's threads
   * @param retry the client's retry policy
   * @param server the server model
   */
  public record Settings(Duration runTime, int flushInterval, long batchMemory, int writeThreads, RetryPolicy retry,
      ServerModel server) {
    /**
     * Twelve seconds of writing with small batches (many round trips, so every fault catches calls in flight), and a
     * retry policy that outlasts the longest outage a run causes: a server restart, a JVM start that takes a few
     * seconds on an idle machine and over 20 s on a starved one; 40 tries at most 2 s apart cover about a minute.
     */
    public static final Settings DEFAULT = new Settings(Duration.ofSeconds(12), 1000, 256 * 1024, 3,
        new RetryPolicy(40, Duration.ofMillis(50), Duration.ofSeconds(2), 0.5), ServerModel.THREADPOOL);

    public Settings {
      if (runTime.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("fault run time must be at least 1 s, was " + runTime);
      }
    }
  }

  /**
   * One run's result.
   *
   * @param written entries the client was told were written (acknowledged)
   * @param received entries the server received, resends and replays included
   * @param points the points of the run's fault timeline
   * @param landed how many of them were reached while the ingest still ran (on a starved machine a short run can end
   *     before its later faults)
   * @param failure why the ingest failed, or null
   */
  public record Outcome(String mode, Fault fault, long written, long received, RetryCounters.Snapshot retries,
      VerifyResult verify, long elapsedNanos, int points, int landed, String failure) {

    public boolean passed() {
      return failure == null && written > 0 && received >= written && verify.undefined() == 0
          && verify.corrupt() == 0;
    }

    /** One line of the report. */
    public String line() {
      String counts = verify == null ? "" : String.format(Locale.ROOT,
          " REFERENCED=%d UNREFERENCED=%d UNDEFINED=%d CORRUPT=%d", verify.referenced(), verify.unreferenced(),
          verify.undefined(), verify.corrupt());
      return String.format(Locale.ROOT, "%-8s %-19s faults=%d/%d written=%d received=%d retries=%d reconnects=%d"
          + " lost=%.1fs elapsed=%.1fs%s %s", fault.token(), mode, landed, points, written, received,
          retries.retries(), retries.reconnects(), retries.nanosLost() / 1e9, elapsedNanos / 1e9, counts,
          passed() ? "PASS" : "FAIL"
          + (failure == null ? "" : " (" + failure + ")"));
    }
  }

  private FaultBench() {}

  /** Runs {@code fault} on {@code mode} in {@code dir} (created; left for the caller to delete). */
  public static Outcome run(String mode, Fault fault, Path dir, Settings settings, long seed) throws Exception {
    BenchMode level = BenchMode.parse(mode);
    Files.createDirectories(dir);
    EmbeddedKdc.Builder kdc = EmbeddedKdc.builder();
    if (fault == Fault.EXPIRE) {
      kdc.ticketLifetime(SHORT_TICKETS).clockSkew(Duration.ofSeconds(1));
    }
    try (BenchSecurity security = new BenchSecurity(dir, kdc)) {
      Path serverProps = EmbeddedBackend.writeConfig(dir.resolve("server.properties"),
          tune(level.config(security, true), fault).build());
      SecurityConfig client = tune(level.config(security, false), fault).readTimeout(READ_TIMEOUT).build();
      ServerProcess server = new ServerProcess(security, serverProps, settings.server(), dir);
      try (FaultProxy proxy = FaultProxy.start(new InetSocketAddress(BenchSecurity.HOST, server.port()), 256, seed);
          IngestClient ingest = new IngestClient(client, BenchSecurity.HOST, proxy.port(), settings.retry())) {
        IngestOptions options = new IngestOptions(0, settings.flushInterval(), settings.batchMemory(),
            Duration.ofSeconds(1), settings.writeThreads(), seed, settings.runTime());
        long start = System.nanoTime();
        CompletableFuture<IngestResult> running = CompletableFuture.supplyAsync(() -> {
          try {
            return ingest.ingest(options);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        Timeline timeline = new Timeline(start, settings.runTime(), proxy, running);
        inject(fault, timeline, proxy, server, security, dir);
        String failure = null;
        long written = 0;
        try {
          written = running.get().entries();
        } catch (ExecutionException e) {
          failure = String.valueOf(e.getCause().getMessage());
        }
        long elapsed = System.nanoTime() - start;
        LineRecord answer = server.verify();
        return new Outcome(mode, fault, written, WorkerProtocol.received(answer), ingest.retries(),
            WorkerProtocol.verified(answer), elapsed, timeline.points, timeline.landed, failure);
      } finally {
        server.close();
      }
    }
  }

  /** The fault run's additions to a mode's configuration. */
  private static SecurityConfig.Builder tune(SecurityConfig config, Fault fault) {
    SecurityConfig.Builder b = config.toBuilder();
    if (fault == Fault.ROTATE && config.mode().usesTls()) {
      b.tlsReloadInterval(RELOAD);
    }
    if (fault == Fault.EXPIRE && config.mode().usesSasl()) {
      // Checked often, so the renewal thread (not only a connection finding its ticket expired) logs in again.
      b.renewalPeriod(Duration.ofSeconds(1));
    }
    return b;
  }

  private static void inject(Fault fault, Timeline t, FaultProxy proxy, ServerProcess server,
      BenchSecurity security, Path dir) throws Exception {
    switch (fault) {
      case RESTART -> {
        for (double at : new double[] {0.3, 0.6}) {
          t.at(at, "server kill");
          server.killAndRestart();
          proxy.target(new InetSocketAddress(BenchSecurity.HOST, server.port()));
        }
      }
      case ROTATE -> {
        Path staging = Files.createDirectories(dir.resolve("rotation"));
        CertificateRotation rotation = new CertificateRotation(security, staging);
        t.at(0.2, "re-issue from the same CA");
        rotation.reissueFromSameCa();
        t.after(RELOAD);
        proxy.cutAll();
        t.at(0.45, "trust both CAs");
        rotation.trustBothCas();
        t.after(RELOAD);
        proxy.cutAll();
        t.at(0.7, "re-issue from the next CA");
        rotation.reissueFromNextCa();
        t.after(RELOAD);
        proxy.cutAll();
      }
      case EXPIRE -> {
        // Cut once each ticket has expired, so the new connections need a fresh one: the renewal thread's (it logs
        // in again at 80 % of the lifetime) or the one a connection gets by logging in again when it finds the
        // ticket expired.
        for (int lifetimes = 1; lifetimes <= 2; lifetimes++) {
          t.atElapsed(SHORT_TICKETS.multipliedBy(lifetimes).plusMillis(500), "ticket expiry " + lifetimes);
          proxy.cutAll();
        }
      }
      case KDC -> {
        t.at(0.3, "KDC stop");
        security.kdc().stop();
        t.at(0.4, "reconnect without a KDC");
        proxy.cutAll();
        t.at(0.6, "KDC restart");
        security.kdc().restart();
        proxy.cutAll();
      }
      case NET -> {
        t.at(0.15, "cut");
        proxy.cutAll();
        t.at(0.3, "stall");
        proxy.stall(STALL);
        t.at(0.5, "delay");
        proxy.delay(Duration.ofMillis(20));
        t.at(0.6, "truncate");
        proxy.delay(Duration.ZERO);
        proxy.truncateAfter(3000);
        long cuts = proxy.cuts();
        proxy.cutAll();
        t.until("two truncated connections", () -> proxy.cuts() >= cuts + 3);
        proxy.truncateAfter(-1);
        t.at(0.75, "random loss");
        proxy.lossy(0.02);
        t.at(0.9, "heal");
        proxy.heal();
      }
      default -> throw new IllegalArgumentException("no injection for " + fault);
    }
  }

  /** Points in a run's time, reached only while the ingest still runs and once data flowed since the last one. */
  private static final class Timeline {
    private final long start;
    private final Duration runTime;
    private final FaultProxy proxy;
    private final CompletableFuture<?> running;
    private final Duration limit;
    private long forwardedAtLast;
    private int points;
    private int landed;

    Timeline(long start, Duration runTime, FaultProxy proxy, CompletableFuture<?> running) {
      this.start = start;
      this.runTime = runTime;
      this.proxy = proxy;
      this.running = running;
      this.limit = runTime.multipliedBy(3).plusMinutes(1);
    }

    /** Waits for {@code fraction} of the run time and for bytes forwarded since the previous point. */
    void at(double fraction, String what) {
      atElapsed(Duration.ofNanos((long) (runTime.toNanos() * fraction)), what);
    }

    /** Waits until {@code elapsed} into the run and for bytes forwarded since the previous point. */
    void atElapsed(Duration elapsed, String what) {
      long due = start + elapsed.toNanos();
      long before = forwardedAtLast;
      until(what + " at " + elapsed.toMillis() + " ms into the run",
          () -> System.nanoTime() - due >= 0 && proxy.forwarded() > before);
      forwardedAtLast = proxy.forwarded();
      points++;
      if (!running.isDone()) {
        landed++;
      }
    }

    /** Waits {@code pause} (a reload interval) while the run goes on. */
    void after(Duration pause) {
      long due = System.nanoTime() + pause.toNanos();
      until("a pause of " + pause, () -> System.nanoTime() - due >= 0);
    }

    /** Waits for {@code condition}, or for the ingest to end (it failed: the outcome says why). */
    void until(String what, BooleanSupplier condition) {
      Await.until(what, limit, () -> running.isDone() || condition.getAsBoolean());
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
          .args(List.of(properties.toString(), model.token(), ServerWorker.NO_BASELINE,
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
