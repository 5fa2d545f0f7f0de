package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.QuietAuditLog;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.netty.TlsEchoServer.Model;
import io.securethrift.netty.TlsEchoServer.Stores;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The connection rate limits on both server models and every TLS engine, under a real flood on loopback. One address
 * (127.0.0.2) opens a thousand connections a second, twenty times its limit, each sending a real TLS ClientHello,
 * which would cost the server a full handshake (key exchange and signature); its connections over the limit are closed
 * as they are accepted.
 * The TLS handshakes of a legitimate client from 127.0.0.1 are timed in blocks without the flood and blocks with it,
 * alternated: it is served every time, and its median handshake with the flood stays within twice the one without.
 * That the refused connections are closed before their handshake, and audited, is {@link ConnectionRateRefusalTest}'s.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class ConnectionRateFloodTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  /**
   * The flooder's allowance, and the legitimate client's, which must never be refused: a burst of 50, and then one
   * connection per 20 ms. Before each flooded block the flood runs for {@link #REFUSED_BEFORE_TIMING} refusals, which
   * at its pace take 99 ms at least: the client gets at least 4 connections back per round while it makes
   * {@code 2 * BLOCK}, so it needs {@code WARM_UP + ROUNDS * (2 * BLOCK - 4)} = 42 of its burst at most.
   */
  private static final int PER_ADDRESS = 50;
  private static final int WARM_UP = 10;
  /**
   * Blocks of each kind, timed in the order idle, flooded, flooded, idle, idle, flooded...: the machine's speed drifts
   * (other builds share it), and alternating short blocks gives both kinds the same share of every phase of the drift.
   */
  private static final int ROUNDS = 8;
  private static final int BLOCK = 4;
  /** Measurements of ROUNDS rounds, of which one must meet the goal (see the test). */
  private static final int ATTEMPTS = 3;
  /**
   * Refusals waited for each time the flood starts again before a flooded block is timed. The first one means the
   * flooder's bucket is empty; the connections it refilled while paused were admitted before, and the time these
   * refusals take lets the server deal with them, so the block times the flood as it goes on, not its restart.
   */
  private static final int REFUSED_BEFORE_TIMING = 100;
  /**
   * The flood's pace: one connection a millisecond at most. A flooder as fast as one thread can go takes one of the
   * two cores of the machine the tests run on, which the server and the legitimate client share with it; what the
   * test would then time is the flooder's own load (docs/tls.md, "Handshake rate limits"), not the server's.
   */
  private static final long FLOOD_INTERVAL_NANOS = 1_000_000;

  private static Stores stores;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    stores = Stores.write(ca, dir);
  }

  @ParameterizedTest
  @CsvSource({"THREAD_POOL, jsse", "THREAD_POOL, conscrypt", "THREAD_POOL, openssl", "NETTY, jsse", "NETTY, conscrypt",
      "NETTY, openssl"})
  @ExtendWith(RunnableEnginesOnly.class)
  void aHandshakeFloodFromOneAddressLeavesALegitimateClientItsLatency(Model model, TlsEngine engine)
      throws Exception {
    String server = model + " " + engine;
    SecurityConfig serverConfig = stores.server(engine)
        .connectionRatePerAddress(PER_ADDRESS).connectionRateMax(1000).handshakeTimeout(Duration.ofSeconds(5)).build();
    try (QuietAuditLog quiet = QuietAuditLog.start();
        TlsEchoServer running = TlsEchoServer.start(model, serverConfig);
        ClientTransportFactory clients = ClientTransportFactory.create(stores.client(engine).build());
        Flood flood = new Flood(running.port(), clientHello())) {
      AuthCounters counters = running.counters();
      handshakes(clients, running.port(), WARM_UP);
      // The flooder's first burst (one second's worth, admitted by design) is dealt with before anything is timed:
      // each of those connections ends with a failure of a cause other than over-limit, as the flooder never answers.
      flood.resume();
      Await.until("the flood's first burst handled", WAIT,
          () -> counters.failures() - counters.failures(AuthFailure.OVER_LIMIT) >= PER_ADDRESS);
      // The test shares two cores with other modules' tests, which can slow either kind of block for a while; a
      // flood the limit did not hold off slows every attempt, so the claim is that one of ATTEMPTS meets it.
      List<String> attempts = new ArrayList<>();
      boolean met = false;
      for (int attempt = 1; attempt <= ATTEMPTS && !met; attempt++) {
        long[] idle = new long[ROUNDS * BLOCK];
        long[] flooded = new long[ROUNDS * BLOCK];
        for (int round = 0; round < ROUNDS; round++) {
          boolean floodFirst = round % 2 == 1;
          for (boolean flooding : new boolean[] {floodFirst, !floodFirst}) {
            if (flooding) {
              floodOn(flood, counters);
            } else {
              floodOff(flood, counters);
            }
            System.arraycopy(handshakes(clients, running.port(), BLOCK), 0, flooding ? flooded : idle,
                round * BLOCK, BLOCK);
          }
        }
        floodOff(flood, counters);
        long idleMedian = median(idle);
        long floodedMedian = median(flooded);
        met = floodedMedian <= 2 * idleMedian;
        attempts.add(String.format("attempt %d: median handshake idle %.2f ms, flooded %.2f ms, ratio %.2f;"
            + " flooded %s, idle %s", attempt, idleMedian / 1e6, floodedMedian / 1e6,
            (double) floodedMedian / idleMedian, Arrays.toString(flooded), Arrays.toString(idle)));
      }
      System.out.printf("%s: %s; %d flood connections, %d refused%n", server, attempts.get(attempts.size() - 1)
          .replaceAll("; flooded .*", ""), flood.opened(), counters.failures(AuthFailure.OVER_LIMIT));
      assertTrue(met, server + ": the flooded median handshake was over twice the idle one in every attempt:\n"
          + String.join("\n", attempts));
      assertEquals(flood.opened(), counters.failures(), "every flood connection ends refused or failed, once");
      assertEquals(WARM_UP + 2 * ROUNDS * BLOCK * attempts.size(), counters.successes(),
          "every success is the legitimate client's");
    }
  }

  /** Starts the flood and waits until its connections are being refused ({@link #REFUSED_BEFORE_TIMING}). */
  private static void floodOn(Flood flood, AuthCounters counters) {
    long refused = counters.failures(AuthFailure.OVER_LIMIT);
    flood.resume();
    Await.until("the flood refused", WAIT,
        () -> counters.failures(AuthFailure.OVER_LIMIT) >= refused + REFUSED_BEFORE_TIMING);
  }

  /** Stops the flood and waits until the server has ended every connection of it, so that it is idle again. */
  private static void floodOff(Flood flood, AuthCounters counters) throws InterruptedException {
    flood.pause();
    // Each flood connection ends with one failure: over-limit when refused, another cause when admitted, once the
    // flooder's close ends its handshake. The legitimate client's connections all succeed.
    Await.until("every flood connection ended", WAIT, () -> counters.failures() >= flood.opened());
  }

  /** Times {@code n} TLS handshakes of the legitimate client, each followed by one call, in nanoseconds. */
  private static long[] handshakes(ClientTransportFactory clients, int port, int n) throws Exception {
    long[] times = new long[n];
    for (int i = 0; i < n; i++) {
      long start = System.nanoTime();
      try (SecuredTransport transport = clients.open("localhost", port)) {
        times[i] = System.nanoTime() - start;
        EchoServer.assertEchoes(EchoServer.client(transport), 100);
      }
    }
    return times;
  }

  private static long median(long[] times) {
    long[] sorted = times.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** A real TLS 1.3 ClientHello from the JDK's engine: the start of a full handshake, as a new client sends it. */
  private static byte[] clientHello() throws Exception {
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(null, null, null);
    SSLEngine engine = context.createSSLEngine("localhost", 0);
    engine.setUseClientMode(true);
    ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    engine.wrap(ByteBuffer.allocate(0), out);
    out.flip();
    byte[] hello = new byte[out.remaining()];
    out.get(hello);
    return hello;
  }

  /**
   * One thread opening connections from 127.0.0.2 while resumed, one every {@link #FLOOD_INTERVAL_NANOS} or as fast
   * as it can if that is slower, each sending {@code hello} and closing; while paused it waits without using the CPU.
   */
  private static final class Flood implements AutoCloseable {
    private final InetSocketAddress to;
    private final byte[] hello;
    private final Thread thread;
    private final AtomicLong opened = new AtomicLong();
    /** Guarded by this, as are the two below. */
    private boolean flooding;
    /** Whether a connection is being opened, written to or closed now. */
    private boolean connecting;
    private boolean stopped;

    Flood(int port, byte[] hello) {
      this.to = new InetSocketAddress("127.0.0.1", port);
      this.hello = hello;
      this.thread = new Thread(this::run, "flood-from-127.0.0.2");
      thread.start();
    }

    synchronized void resume() {
      flooding = true;
      notifyAll();
    }

    /** Stops the flood and waits for the connection in hand, so that {@link #opened} stays put until resumed. */
    synchronized void pause() throws InterruptedException {
      flooding = false;
      while (connecting) {
        wait();
      }
    }

    /** Connections the server accepted (or will), refused or not. */
    long opened() {
      return opened.get();
    }

    @Override
    public void close() throws InterruptedException {
      synchronized (this) {
        stopped = true;
        notifyAll();
      }
      thread.join();
    }

    private void run() {
      InetSocketAddress from = new InetSocketAddress("127.0.0.2", 0);
      while (nextConnection()) {
        long due = System.nanoTime() + FLOOD_INTERVAL_NANOS;
        try (Socket socket = new Socket()) {
          socket.bind(from);
          socket.connect(to);
          opened.incrementAndGet();
          socket.getOutputStream().write(hello);
        } catch (IOException refused) {
          // Closed by the server at once: the flood goes on.
        } finally {
          connected();
        }
        // Until due, however often the park returns early: the pace bounds how fast refusals can come.
        for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
          LockSupport.parkNanos(left);
        }
      }
    }

    /** Waits until resumed or stopped; true, with a connection in hand, when resumed. */
    private synchronized boolean nextConnection() {
      while (!flooding && !stopped) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      connecting = !stopped;
      return connecting;
    }

    private synchronized void connected() {
      connecting = false;
      notifyAll();
    }
  }
}
