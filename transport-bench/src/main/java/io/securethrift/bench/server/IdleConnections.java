package io.securethrift.bench.server;

import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.transport.TTransportException;

/**
 * Scenario 1: authenticated connections that stay idle. Opens connections up to each level in turn (1,000, then
 * 5,000, ...), and at each level reads the server's resident memory and threads and its heap after a collection,
 * against the same figures before the first connection. A server that refuses or fails a connection stops the climb:
 * its row says how many it held.
 */
final class IdleConnections {
  static final String SCENARIO = "idle";
  private static final int OPENERS = 8;

  private IdleConnections() {}

  static List<Row> measure(ServerUnderTest server, ClientTransportFactory clients, List<Integer> levels)
      throws Exception {
    long heapBefore = server.heapUsed();
    ProcStatus before = server.status();
    List<SecuredTransport> held = Collections.synchronizedList(new ArrayList<>());
    List<Row> rows = new ArrayList<>();
    ExecutorService openers = Executors.newFixedThreadPool(OPENERS);
    try {
      for (int level : levels) {
        int heldBefore = held.size();
        long start = System.nanoTime();
        String failure = openUpTo(level, server, clients, held, openers);
        double seconds = (System.nanoTime() - start) / 1e9;
        long heap = server.heapUsed();
        ProcStatus now = server.status();
        int count = held.size();
        rows.add(new Row(SCENARIO, server.mode.name(), server.kind.token(), level + " conns", new Row.Figures()
            .put("held", count)
            .put("rss_kb_per_conn", count == 0 ? Double.NaN : (now.rssKb() - before.rssKb()) / (double) count)
            .put("heap_kb_per_conn", count == 0 ? Double.NaN : (heap - heapBefore) / 1024.0 / count)
            .put("server_threads", server.serverThreads())
            .put("rss_mb", now.rssKb() / 1024.0)
            .put("open_per_s", (count - heldBefore) / seconds).map()));
        if (failure != null) {
          break;
        }
      }
    } finally {
      openers.shutdownNow();
      for (SecuredTransport transport : held) {
        transport.close();
      }
    }
    return rows;
  }

  /** Opens connections until {@code level} are held, or the first one fails; returns that failure or null. */
  private static String openUpTo(int level, ServerUnderTest server, ClientTransportFactory clients,
      List<SecuredTransport> held, ExecutorService openers) throws Exception {
    AtomicInteger tickets = new AtomicInteger(level - held.size());
    AtomicBoolean failed = new AtomicBoolean();
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    List<Future<?>> tasks = new ArrayList<>();
    for (int i = 0; i < OPENERS; i++) {
      tasks.add(openers.submit(() -> {
        while (!failed.get() && tickets.getAndDecrement() > 0) {
          try {
            held.add(clients.open(BenchMaterial.HOST, server.port()));
          } catch (TTransportException | RuntimeException e) {
            failed.set(true);
            failures.add(String.valueOf(e.getMessage()));
          }
        }
        return null;
      }));
    }
    for (Future<?> task : tasks) {
      task.get();
    }
    return failures.isEmpty() ? null : failures.get(0);
  }
}
