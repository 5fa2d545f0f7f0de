package io.securethrift.bench.server;

import io.securethrift.bench.Payloads;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;

/**
 * Scenarios 3 and 4: closed-loop echo calls. Opens the connections (all at once, as many clients starting together
 * would), then for each payload size gives every connection that opened its own thread calling as fast as replies
 * come, and counts the calls answered and their latencies within the measured window that follows a warm-up.
 * Connections the server refused count as refused, not as calls.
 */
final class ClosedLoop {
  static final String SCENARIO = "calls";
  private static final int OPENERS = 16;

  private ClosedLoop() {}

  static List<Row> measure(ServerUnderTest server, ClientTransportFactory clients, int connections,
      List<Integer> sizes, Duration warmUp, Duration window) throws Exception {
    List<SecuredTransport> open = Collections.synchronizedList(new ArrayList<>());
    AtomicLong refused = new AtomicLong();
    ExecutorService openers = Executors.newFixedThreadPool(OPENERS);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        tasks.add(openers.submit(() -> {
          try {
            open.add(clients.open(BenchMaterial.HOST, server.port()));
          } catch (TTransportException | RuntimeException e) {
            refused.incrementAndGet();
          }
          return null;
        }));
      }
      for (Future<?> task : tasks) {
        task.get();
      }
      List<Row> rows = new ArrayList<>();
      for (int size : sizes) {
        rows.add(run(server, open, refused.get(), connections, size, warmUp, window));
      }
      return rows;
    } finally {
      openers.shutdownNow();
      for (SecuredTransport transport : open) {
        transport.close();
      }
    }
  }

  private static Row run(ServerUnderTest server, List<SecuredTransport> open, long refused, int connections,
      int size, Duration warmUp, Duration window) throws InterruptedException {
    ByteBuffer payload = Payloads.random(size);
    Latencies latencies = new Latencies();
    AtomicLong failedCalls = new AtomicLong();
    LongAdder answered = new LongAdder();
    long start = System.nanoTime() + warmUp.toNanos();
    long end = start + window.toNanos();
    CountDownLatch done = new CountDownLatch(open.size());
    List<Thread> threads = new ArrayList<>();
    for (SecuredTransport transport : open) {
      Thread t = new Thread(() -> {
        Latencies mine = new Latencies();
        EchoService.Client client = EchoServer.client(transport);
        try {
          for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
            client.echo(payload.duplicate());
            answered.increment();
            long after = System.nanoTime();
            // A call counts in the window it completes in, so that calls longer than a short window still count.
            if (after >= start && after <= end) {
              mine.add(after - now);
            }
          }
        } catch (TException | RuntimeException e) {
          failedCalls.incrementAndGet();
        } finally {
          latencies.addAll(mine);
          done.countDown();
        }
      }, "calls-" + threads.size());
      t.setDaemon(true);
      threads.add(t);
    }
    // Read before the calls start and once they have all stopped, over warm-up and window: once a thousand calling
    // threads run (against a thousand server threads) this thread may get the CPU only after the window has ended,
    // so a reading timed to the window could fall outside it. The server does nothing else meanwhile.
    ProcCost before = server.cost();
    threads.forEach(Thread::start);
    done.await();
    ProcCost spent = server.cost().minus(before);
    double calls = Math.max(1, answered.sum());
    double seconds = window.toNanos() / 1e9;
    return new Row(SCENARIO, server.mode.name(), server.kind.token(), connections + " conns x " + sizeText(size),
        new Row.Figures()
            .put("conns_served", open.size())
            .put("conns_refused", refused)
            .put("calls_per_s", latencies.count() / seconds)
            .put("p50_ms", latencies.percentileMs(50))
            .put("p99_ms", latencies.percentileMs(99))
            .put("server_cpu_us_per_call", spent.cpuNanos() / 1e3 / calls)
            .put("server_switches_per_call", spent.contextSwitches() / calls)
            .put("failed_conns", failedCalls.get()).map());
  }

  static String sizeText(int size) {
    return size % 1024 == 0 ? size / 1024 + " KiB" : size + " B";
  }
}
