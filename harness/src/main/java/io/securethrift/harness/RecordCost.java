package io.securethrift.harness;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.tls.StandardSslContextFactory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.security.GeneralSecurityException;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * What one TLS engine's record layer costs on this machine: the CPU time to seal and to open a megabyte of application
 * data in full records, between two engines in memory after their handshake. It is the floor under a TLS mode's extra
 * CPU per megabyte in a benchmark: each side seals what it sends and opens what it receives, so a side that sends the
 * payload cannot spend less than the seal cost on it, and the side that receives it not less than the open cost. What
 * a mode spends above that goes to copies, small records, handshakes and the transport around the engine.
 *
 * <p>Measured on the calling thread's CPU clock: the engines are warmed up first (so the JIT has compiled the cipher's
 * intrinsics), then the seal and open passes are timed apart, a megabyte-sized batch of records at a time, and the
 * median of {@link #PASSES} passes is kept.
 *
 * @param sealUsPerMb CPU microseconds to seal one million bytes of application data
 * @param openUsPerMb CPU microseconds to open them again
 * @param cipherSuite the suite the two engines negotiated, which decides the cost
 */
public record RecordCost(double sealUsPerMb, double openUsPerMb, String cipherSuite) {
  /** Nothing measured: a mode without TLS. */
  public static final RecordCost NONE = new RecordCost(Double.NaN, Double.NaN, "");
  /** Application bytes per record: the most TLS puts in one, which is what a bulk sender fills. */
  static final int RECORD_PLAINTEXT = 16_384;
  /** Records in one timed batch: a megabyte, so each batch's clock readings are far apart from its resolution. */
  static final int BATCH_RECORDS = 64;
  static final int PASSES = 7;
  private static final int WARM_UP_BATCHES = 256;
  private static final int BATCHES_PER_PASS = 64;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * The record cost of {@code mode}'s TLS engine and protocol version, between a client and a server configured as the
   * benchmarks configure them (the same certificates, suites and client authentication); {@link #NONE} for a mode
   * without TLS.
   *
   * @throws IOException when a store cannot be read
   * @throws GeneralSecurityException when the contexts cannot be made or the handshake fails
   */
  public static RecordCost of(BenchSecurity security, BenchMode mode) throws IOException, GeneralSecurityException {
    if (!mode.security().usesTls()) {
      return NONE;
    }
    return of(security.config(mode, false).build(), security.config(mode, true).build());
  }

  /**
   * The record cost of the TLS engine and protocol version a client of {@code client}'s configuration and a server of
   * {@code server}'s negotiate, the server's host being {@link BenchSecurity#HOST}.
   *
   * @throws IOException when a store cannot be read
   * @throws GeneralSecurityException when the contexts cannot be made or the handshake fails
   */
  public static RecordCost of(SecurityConfig client, SecurityConfig server)
      throws IOException, GeneralSecurityException {
    return measure(engine(client, Role.CLIENT), engine(server, Role.SERVER));
  }

  private static SSLEngine engine(SecurityConfig config, Role role) throws IOException, GeneralSecurityException {
    return StandardSslContextFactory.INSTANCE.newEngine(config.tls(), role, BenchSecurity.HOST, 0);
  }

  /**
   * Handshakes {@code client} with {@code server} in memory and measures their records in the client-to-server
   * direction. Both engines must be new, configured (client mode, parameters) and not yet started.
   *
   * @throws SSLException if the handshake fails
   */
  public static RecordCost measure(SSLEngine client, SSLEngine server) throws SSLException {
    EnginePair pair = new EnginePair(client, server);
    pair.handshake();
    for (int i = 0; i < WARM_UP_BATCHES; i++) {
      pair.batch();
    }
    double[] seal = new double[PASSES];
    double[] open = new double[PASSES];
    for (int pass = 0; pass < PASSES; pass++) {
      long[] nanos = new long[2];
      for (int i = 0; i < BATCHES_PER_PASS; i++) {
        long[] batch = pair.batch();
        nanos[0] += batch[0];
        nanos[1] += batch[1];
      }
      double megabytes = (double) BATCHES_PER_PASS * BATCH_RECORDS * RECORD_PLAINTEXT / 1e6;
      seal[pass] = nanos[0] / 1e3 / megabytes;
      open[pass] = nanos[1] / 1e3 / megabytes;
    }
    return new RecordCost(Measurement.median(seal), Measurement.median(open), client.getSession().getCipherSuite());
  }

  /** Whether anything was measured. */
  public boolean measured() {
    return !Double.isNaN(sealUsPerMb);
  }

  /** The engine's cost for the side that sends the payload ({@code sending}) or receives it. */
  public double usPerMb(boolean sending) {
    return sending ? sealUsPerMb : openUsPerMb;
  }

  /**
   * The engine's cost per MB of an echo held in one process, client and server alike: the megabyte is sealed and opened
   * on its way out and again on its way back.
   */
  public double echoUsPerMb() {
    return 2 * (sealUsPerMb + openUsPerMb);
  }

  @Override
  public String toString() {
    return measured() ? String.format(Locale.ROOT, "seal %.0f us/MB, open %.0f us/MB (%s)", sealUsPerMb, openUsPerMb,
        cipherSuite) : "no TLS";
  }

  /** Two engines joined by buffers: the handshake, then batches of full records one way. */
  private static final class EnginePair {
    private final SSLEngine client;
    private final SSLEngine server;
    private final ByteBuffer plain = ByteBuffer.allocate(RECORD_PLAINTEXT);
    private final ByteBuffer wire;
    private final ByteBuffer received;
    private final ByteBuffer toClient;
    private final ByteBuffer toServer;
    private final ByteBuffer scratch;

    EnginePair(SSLEngine client, SSLEngine server) {
      this.client = client;
      this.server = server;
      int packet = client.getSession().getPacketBufferSize();
      int application = client.getSession().getApplicationBufferSize();
      this.wire = ByteBuffer.allocate(packet * BATCH_RECORDS);
      this.received = ByteBuffer.allocate(Math.max(application, RECORD_PLAINTEXT));
      this.toClient = ByteBuffer.allocate(packet * 4);
      this.toServer = ByteBuffer.allocate(packet * 4);
      this.scratch = ByteBuffer.allocate(application);
    }

    void handshake() throws SSLException {
      client.beginHandshake();
      server.beginHandshake();
      int steps = 0;
      while (handshaking(client) || handshaking(server)) {
        if (++steps > 1_000) {
          throw new SSLException("the in-memory handshake did not finish: client " + client.getHandshakeStatus()
              + ", server " + server.getHandshakeStatus());
        }
        step(client, toServer, toClient);
        step(server, toClient, toServer);
      }
      // TLS 1.3 servers send session tickets after the handshake: let the client read them so none is left queued.
      step(client, toServer, toClient);
    }

    private static boolean handshaking(SSLEngine engine) {
      SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
      return status != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
          && status != SSLEngineResult.HandshakeStatus.FINISHED;
    }

    /** Lets {@code engine} read what its peer sent ({@code in}) and write what it has to send ({@code out}). */
    private void step(SSLEngine engine, ByteBuffer out, ByteBuffer in) throws SSLException {
      in.flip();
      while (in.hasRemaining()) {
        SSLEngineResult result = engine.unwrap(in, scratch);
        scratch.clear();
        runTasks(engine);
        if (result.getStatus() != SSLEngineResult.Status.OK || result.bytesConsumed() == 0) {
          break;
        }
      }
      in.compact();
      // Wrapped until it produces nothing, not only while it asks to: Netty's OpenSSL engine reports its handshake
      // done as soon as it has read the server's Finished, before its own Finished is wrapped.
      SSLEngineResult result;
      do {
        result = engine.wrap(ByteBuffer.allocate(0), out);
        runTasks(engine);
      } while (result.bytesProduced() > 0 || engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP);
    }

    private static void runTasks(SSLEngine engine) {
      for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
        task.run();
      }
    }

    /** Seals a batch of full records and opens them again; returns the CPU nanoseconds of each. */
    long[] batch() throws SSLException {
      wire.clear();
      long start = THREADS.getCurrentThreadCpuTime();
      for (int i = 0; i < BATCH_RECORDS; i++) {
        plain.clear();
        require(client.wrap(plain, wire), "seal");
      }
      long sealed = THREADS.getCurrentThreadCpuTime();
      wire.flip();
      while (wire.hasRemaining()) {
        received.clear();
        require(server.unwrap(wire, received), "open");
      }
      long opened = THREADS.getCurrentThreadCpuTime();
      return new long[] {sealed - start, opened - sealed};
    }

    private static void require(SSLEngineResult result, String what) throws SSLException {
      if (result.getStatus() != SSLEngineResult.Status.OK) {
        throw new SSLException("could not " + what + " a record in memory: " + result);
      }
    }
  }
}
