package io.securethrift.ingest.bench;

import io.securethrift.core.testing.Await;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.client.IngestOptions;
import io.securethrift.ingest.client.IngestResult;
import io.securethrift.ingest.client.RetryPolicy;
import io.securethrift.ingest.faults.FaultProxy;
import io.securethrift.ingest.server.ServerModel;
import io.securethrift.ingest.workload.VerifyResult;
import io.securethrift.testkit.EmbeddedKdc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/**
 * {@code ingest-bench --faults}: continuous ingest while the world moves under it, one {@link Fault} per run, on any
 * backend with a {@link FaultBackend}: the backend starts a server, its own client and a {@link FaultProxy} between
 * them ({@link FaultTarget}); this class runs the same timeline of faults on every backend and judges the outcome the
 * same way. Each run writes for a fixed time, injects its fault at set points of that time (each only once the ingest
 * made progress since the previous one, so every fault hits a working system), then verifies the server's table. A run
 * passes when the verifier finds no undefined and no corrupt entry and the server holds every entry the client was
 * told was written (a server that counts what it receives may hold more: a batch resent after a lost acknowledgement
 * is received twice, and rewriting the same entry is harmless).
 */
public final class FaultBench {
  /** How long the {@code net} run stalls the network: longer than the embedded client's read timeout in fault runs. */
  static final Duration STALL = Duration.ofSeconds(3);
  /** How long the {@code tls-on} run waits for the server to audit the plaintext client it refused. */
  private static final Duration AUDIT_WAIT = Duration.ofSeconds(30);

  /** What goes wrong during a run. */
  public enum Fault {
    /** The server process is killed (SIGKILL) and started again on its write-ahead log, twice. */
    RESTART,
    /** Certificates are re-issued by the same CA, then a second CA is trusted, then certificates come from it. */
    ROTATE,
    /**
     * Kerberos tickets live {@link FaultBackend#shortTickets()}; connections are cut once they expired, so new ones
     * log in again.
     */
    EXPIRE,
    /** The KDC stops, connections are cut and re-made without it, then it comes back. */
    KDC,
    /** The network cuts, stalls, delays and truncates connections, then drops them at random. */
    NET,
    /**
     * Mutual TLS is turned on one process at a time ({@link TlsRollout.Step}): the run starts in plaintext, the server
     * restarts on a unified port, the client moves to the mode's mutual TLS, the server turns TLS only.
     */
    TLS_ON;

    public String token() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
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
   * @param retry the embedded backend's client's retry policy (other backends' clients retry their own way)
   * @param server the embedded backend's server model
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
   * @param tlsOn what the {@code tls-on} run showed of plaintext, or null for another fault
   */
  public record Outcome(String mode, Fault fault, long written, long received, FaultTarget.Cost cost,
      VerifyResult verify, long elapsedNanos, int points, int landed, String failure, TlsRollout.Check tlsOn) {

    public boolean passed() {
      return failure == null && written > 0 && received >= written && verify.undefined() == 0
          && verify.corrupt() == 0 && (tlsOn == null || tlsOn.passed());
    }

    /** One line of the report. */
    public String line() {
      String counts = verify == null ? "" : String.format(Locale.ROOT,
          " REFERENCED=%d UNREFERENCED=%d UNDEFINED=%d CORRUPT=%d", verify.referenced(), verify.unreferenced(),
          verify.undefined(), verify.corrupt());
      return String.format(Locale.ROOT, "%-8s %-19s faults=%d/%d written=%d received=%d %s elapsed=%.1fs%s%s %s",
          fault.token(), mode, landed, points, written, received, cost.describe(), elapsedNanos / 1e9, counts,
          tlsOn == null ? "" : " " + tlsOn.describe(),
          passed() ? "PASS" : "FAIL" + (failure == null ? "" : " (" + failure + ")"));
    }
  }

  private FaultBench() {}

  /**
   * Runs {@code fault} on {@code mode} of {@code backend} in {@code dir} (created; left for the caller to delete).
   *
   * @param options {@code --backend-option} settings, which the backend checks
   */
  public static Outcome run(FaultBackend backend, String mode, Fault fault, Path dir, Settings settings, long seed,
      Map<String, String> options) throws Exception {
    Files.createDirectories(dir);
    EmbeddedKdc.Builder kdc = EmbeddedKdc.builder();
    if (fault == Fault.EXPIRE) {
      kdc.ticketLifetime(backend.shortTickets()).clockSkew(Duration.ofSeconds(1));
    }
    try (BenchSecurity security = new BenchSecurity(dir, kdc);
        FaultTarget target = backend.start(mode, fault,
            new FaultBackend.Environment(dir, security, settings, seed, options))) {
      IngestOptions ingestOptions = new IngestOptions(0, settings.flushInterval(), settings.batchMemory(),
          Duration.ofSeconds(1), settings.writeThreads(), seed, settings.runTime());
      long start = System.nanoTime();
      CompletableFuture<IngestResult> running = CompletableFuture.supplyAsync(() -> {
        try {
          return target.ingest(ingestOptions);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      FaultTimeline timeline = new FaultTimeline(start, settings.runTime(), target::progress, running);
      TlsRollout.Check tlsOn = null;
      if (fault == Fault.TLS_ON) {
        tlsOn = rollTls(timeline, target);
      } else {
        inject(fault, timeline, target, security, backend.shortTickets());
      }
      String failure = null;
      long written = 0;
      try {
        written = running.get().entries();
      } catch (ExecutionException e) {
        failure = String.valueOf(e.getCause().getMessage());
      }
      long elapsed = System.nanoTime() - start;
      FaultTarget.Check check = target.verify();
      return new Outcome(mode, fault, written, check.received(), target.cost(), check.counts(), elapsed,
          timeline.points(), timeline.landed(), failure, tlsOn);
    }
  }

  /**
   * The {@code tls-on} run: each step of the roll at its point, then, once the ingest got on with the port TLS only, a
   * plaintext client's call, which the port must refuse and audit.
   */
  private static TlsRollout.Check rollTls(FaultTimeline t, FaultTarget target) throws Exception {
    double[] at = {0.25, 0.45, 0.65};
    long servedWhileUnified = 0;
    for (TlsRollout.Step step : TlsRollout.Step.values()) {
      t.at(at[step.ordinal()], step.toString());
      target.rollTls(step);
      switch (step) {
        // The operator's cue that the unified port serves the clients still on plaintext: its plaintext count grows.
        case UNIFY_SERVER -> t.until("the unified port serving plaintext", () -> plaintextPort(target).served() > 0);
        case CLIENT_TLS -> target.proxy().cutAll();
        // Read once the switch is off: a plaintext connection served up to then counts, none after.
        case TLS_ONLY -> servedWhileUnified = target.plaintextPort().served();
        default -> throw new IllegalArgumentException("no such step " + step);
      }
    }
    t.at(0.8, "plaintext client");
    boolean refused = !target.plaintextClientServed();
    if (refused) {
      Await.until("the plaintext client's refusal audited", AUDIT_WAIT, () -> plaintextPort(target).refused() > 0);
    }
    TlsRollout.Port end = target.plaintextPort();
    return new TlsRollout.Check(servedWhileUnified, end.served(), refused, end.refused());
  }

  /** {@link FaultTarget#plaintextPort()}, for a wait's condition. */
  private static TlsRollout.Port plaintextPort(FaultTarget target) {
    try {
      return target.plaintextPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void inject(Fault fault, FaultTimeline t, FaultTarget target, BenchSecurity security,
      Duration shortTickets) throws Exception {
    FaultProxy proxy = target.proxy();
    switch (fault) {
      case RESTART -> {
        for (double at : new double[] {0.3, 0.6}) {
          t.at(at, "server kill");
          target.killAndRestartServer();
        }
      }
      case ROTATE -> {
        double[] at = {0.2, 0.45, 0.7};
        for (CertificateRotation.Step step : CertificateRotation.Step.values()) {
          t.at(at[step.ordinal()], step.toString());
          target.rotate(step, t);
          proxy.cutAll();
        }
      }
      case EXPIRE -> {
        // Cut once each ticket has expired, so the new connections need a fresh one: the renewal thread's (it logs
        // in again at 80 % of the lifetime) or the one a connection gets by logging in again when it finds the
        // ticket expired.
        for (int lifetimes = 1; lifetimes <= 2; lifetimes++) {
          t.atElapsed(shortTickets.multipliedBy(lifetimes).plusMillis(500), "ticket expiry " + lifetimes);
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
}
