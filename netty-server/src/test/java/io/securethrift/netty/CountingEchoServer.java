package io.securethrift.netty;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TServerSocket;

/**
 * One server model ({@code threadpool} or {@code nonblocking}) serving a {@link CountingEcho}, for the tests of how
 * connections end: each call's payload starts with its id, so a test can tell that no call was lost or run twice.
 */
final class CountingEchoServer implements AutoCloseable {
  /** The echo service, counting how often each call (the payload's first int) ran; a negative one waits. */
  static final class CountingEcho implements EchoService.Iface {
    final Map<Integer, AtomicInteger> executions = new ConcurrentHashMap<>();
    final CountDownLatch slowEntered = new CountDownLatch(1);
    final CountDownLatch releaseSlow = new CountDownLatch(1);

    @Override
    public ByteBuffer echo(ByteBuffer payload) {
      int id = payload.getInt(payload.position());
      executions.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      if (id < 0) {
        slowEntered.countDown();
        try {
          releaseSlow.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return payload;
    }

    int executions(int id) {
      AtomicInteger n = executions.get(id);
      return n == null ? 0 : n.get();
    }

    @Override
    public String whoAmI() {
      return "";
    }

    @Override
    public void fail(String message) {
      throw new UnsupportedOperationException(message);
    }
  }

  final CountingEcho echo = new CountingEcho();
  final int port;
  final AuthCounters counters;
  private final AutoCloseable running;
  private final ServerTransportFactory factory;

  CountingEchoServer(String model, SecurityConfig config) throws Exception {
    TProcessor processor = new EchoService.Processor<>(echo);
    if (model.equals("threadpool")) {
      factory = ServerTransportFactory.create(config);
      TServerSocket socket = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      EchoServer server = EchoServer.start(factory.threadPoolServerArgs(socket, processor),
          ServerTransportFactory.port(socket));
      running = server;
      port = server.port();
      counters = factory.counters();
    } else {
      factory = null;
      NettyThriftServer server = NettyThriftServer.builder(config, processor)
          .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
          .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
      running = server;
      port = server.port();
      counters = server.counters();
    }
  }

  /** A call's payload, carrying its id. */
  static ByteBuffer call(int id) {
    return ByteBuffer.allocate(16).putInt(0, id);
  }

  @Override
  public void close() throws Exception {
    // A slow call still waiting would hold a worker past the test.
    echo.releaseSlow.countDown();
    running.close();
    if (factory != null) {
      factory.close();
    }
  }
}
