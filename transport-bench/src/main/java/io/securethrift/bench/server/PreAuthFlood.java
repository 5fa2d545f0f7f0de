package io.securethrift.bench.server;

import io.securethrift.bench.Payloads;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.thrift.TException;

/**
 * Scenario 2: peers that trickle handshake bytes beside legitimate clients. Legitimate clients each connect, make one
 * 100-byte call and close, over and over, first on an unloaded server and then beside the flood; the row gives their
 * success rate and p99 (connect, handshake, call) both times.
 */
final class PreAuthFlood {
  static final String SCENARIO = "flood";
  private static final ByteBuffer PAYLOAD = Payloads.random(100);
  private static final Duration ROUND = Duration.ofMillis(100);

  private PreAuthFlood() {}

  static Row measure(ServerUnderTest server, ClientTransportFactory clients, int peers, int legitimate,
      Duration window) throws InterruptedException {
    Churn unloaded = churn(server, clients, legitimate, window);
    Churn loaded;
    long reconnects;
    try (Trickler flood = new Trickler(new InetSocketAddress("127.0.0.1", server.port()),
        Trickler.prefix(server.mode), peers, ROUND).start()) {
      loaded = churn(server, clients, legitimate, window);
      reconnects = flood.reconnects();
    }
    return new Row(SCENARIO, server.mode.name(), server.kind.token(), peers + " trickling + " + legitimate
        + " clients", new Row.Figures()
            .put("unloaded_success_pct", unloaded.successPercent())
            .put("unloaded_p99_ms", unloaded.latencies.percentileMs(99))
            .put("success_pct", loaded.successPercent())
            .put("p99_ms", loaded.latencies.percentileMs(99))
            .put("p99_vs_unloaded", loaded.latencies.percentileMs(99) / unloaded.latencies.percentileMs(99))
            .put("connects_per_s", loaded.latencies.count() / (window.toNanos() / 1e9))
            .put("flood_reconnects", reconnects).map());
  }

  /** Legitimate clients' connect-call-close cycles over {@code window}. */
  private static Churn churn(ServerUnderTest server, ClientTransportFactory clients, int legitimate,
      Duration window) throws InterruptedException {
    Churn churn = new Churn();
    long end = System.nanoTime() + window.toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < legitimate; i++) {
      Thread t = new Thread(() -> {
        Latencies mine = new Latencies();
        while (System.nanoTime() < end) {
          long start = System.nanoTime();
          try (SecuredTransport transport = clients.open(BenchMaterial.HOST, server.port())) {
            EchoServer.client(transport).echo(PAYLOAD.duplicate());
            mine.add(System.nanoTime() - start);
          } catch (TException | RuntimeException e) {
            churn.failures.incrementAndGet();
          }
        }
        churn.latencies.addAll(mine);
      }, "legitimate-" + i);
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    return churn;
  }

  private static final class Churn {
    final Latencies latencies = new Latencies();
    final AtomicLong failures = new AtomicLong();

    double successPercent() {
      long total = latencies.count() + failures.get();
      return total == 0 ? Double.NaN : 100.0 * latencies.count() / total;
    }
  }
}
