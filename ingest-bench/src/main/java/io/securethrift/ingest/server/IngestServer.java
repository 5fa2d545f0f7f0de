package io.securethrift.ingest.server;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.ingest.LibthriftSasl;
import io.securethrift.ingest.thrift.IngestFailure;
import io.securethrift.ingest.thrift.IngestService;
import io.securethrift.ingest.workload.VerifyResult;
import io.securethrift.netty.NettyThriftServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The embedded ingest backend: the ingest service secured by securethrift, on either server model
 * ({@link ServerModel}). Both use 64 worker threads and the compact protocol, so only the server model differs.
 */
public final class IngestServer implements AutoCloseable {
  private static final int WORKERS = 64;

  /** One running server of either model. */
  private interface Running {
    int port();

    /** Blocks until the server has stopped, by {@link #stop()} or on its own. */
    void await() throws InterruptedException;

    void stop() throws InterruptedException;

    /** The handshake counters, when securethrift's transports run the server. */
    Optional<AuthCounters> counters();
  }

  private final Running running;
  private final IngestHandler handler;
  private final WriteAheadLog log;

  private IngestServer(Running running, IngestHandler handler, WriteAheadLog log) {
    this.running = running;
    this.handler = handler;
    this.log = log;
  }

  /** Starts a thread-pool server; see {@link #start(SecurityConfig, InetSocketAddress, Path, ServerModel)}. */
  public static IngestServer start(SecurityConfig config, InetSocketAddress address, Path writeAheadLog)
      throws TTransportException, IOException {
    return start(config, address, writeAheadLog, ServerModel.THREADPOOL);
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free one).
   *
   * @param writeAheadLog a file to log every batch to, or null for none; batches it already holds (a server that was
   *     killed) are replayed into the table before the server listens
   */
  public static IngestServer start(SecurityConfig config, InetSocketAddress address, Path writeAheadLog,
      ServerModel model) throws TTransportException, IOException {
    return start(writeAheadLog, processor -> model == ServerModel.NONBLOCKING ? nonblocking(config, address, processor)
        : threadPool(config, address, processor));
  }

  /**
   * Starts a thread-pool server on libthrift's own {@code TSaslServerTransport} (GSSAPI, see {@link LibthriftSasl}), as
   * an unmodified Accumulo tablet server runs: the mechanism is whichever the JVM's security providers give.
   */
  public static IngestServer startOnLibthriftSasl(SecurityConfig config, InetSocketAddress address)
      throws TTransportException, IOException {
    return start(null, processor -> {
      TServerSocket socket = new TServerSocket(address);
      try {
        TThreadPoolServer.Args args = new TThreadPoolServer.Args(socket)
            .transportFactory(LibthriftSasl.serverTransports(config)).processor(processor);
        return threadPool(args, ServerTransportFactory.port(socket), Optional.empty(), () -> { });
      } catch (RuntimeException e) {
        socket.close();
        throw e;
      }
    });
  }

  private static IngestServer start(Path writeAheadLog, ServerStart serverStart)
      throws TTransportException, IOException {
    WriteAheadLog log = writeAheadLog == null ? null : new WriteAheadLog(writeAheadLog);
    IngestHandler handler = new IngestHandler(log);
    try {
      handler.replay();
      return new IngestServer(serverStart.start(new IngestService.Processor<>(handler)), handler, log);
    } catch (TTransportException | IOException | RuntimeException e) {
      if (log != null) {
        log.close();
      }
      throw e;
    }
  }

  @FunctionalInterface
  private interface ServerStart {
    Running start(TProcessor processor) throws TTransportException;
  }

  private static Running threadPool(SecurityConfig config, InetSocketAddress address, TProcessor processor)
      throws TTransportException {
    ServerTransportFactory factory = ServerTransportFactory.create(config);
    try {
      TServerSocket socket = factory.listen(address);
      return threadPool(factory.threadPoolServerArgs(socket, processor), ServerTransportFactory.port(socket),
          Optional.of(factory.counters()), factory::close);
    } catch (TTransportException | RuntimeException e) {
      factory.close();
      throw e;
    }
  }

  /** Serves {@code args} with the compact protocol and the server's worker threads; {@code release} runs after. */
  private static Running threadPool(TThreadPoolServer.Args args, int port, Optional<AuthCounters> counters,
      Runnable release) {
    TThreadPoolServer server = new TThreadPoolServer(args
        .protocolFactory(new TCompactProtocol.Factory())
        .minWorkerThreads(4)
        .maxWorkerThreads(WORKERS)
        .stopTimeoutVal(5)
        .stopTimeoutUnit(TimeUnit.SECONDS));
    Thread thread = new Thread(server::serve, "ingest-server-" + port);
    thread.start();
    return new Running() {
      @Override
      public int port() {
        return port;
      }

      @Override
      public void await() throws InterruptedException {
        thread.join();
      }

      @Override
      public Optional<AuthCounters> counters() {
        return counters;
      }

      @Override
      public void stop() throws InterruptedException {
        server.stop();
        thread.join(TimeUnit.SECONDS.toMillis(30));
        release.run();
      }
    };
  }

  private static Running nonblocking(SecurityConfig config, InetSocketAddress address, TProcessor processor)
      throws TTransportException {
    NettyThriftServer server = NettyThriftServer.builder(config, processor)
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(WORKERS)
        .shutdownGrace(Duration.ofSeconds(5)).build();
    try {
      server.start(address);
    } catch (InterruptedException e) {
      server.close();
      Thread.currentThread().interrupt();
      throw new TTransportException(TTransportException.NOT_OPEN, "interrupted while binding " + address);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    return new Running() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public void await() throws InterruptedException {
        stopped.await();
      }

      @Override
      public Optional<AuthCounters> counters() {
        return Optional.of(server.counters());
      }

      @Override
      public void stop() {
        try {
          server.close();
        } finally {
          stopped.countDown();
        }
      }
    };
  }

  public int port() {
    return running.port();
  }

  /**
   * Handshakes accepted and refused so far, by protection and by cause; empty on libthrift's transports, which count
   * none.
   */
  public Optional<AuthCounters> counters() {
    return running.counters();
  }

  /**
   * Applies the continuous-ingest verify rules to every entry the table holds, in this process (no scan over the
   * network); see {@link #received()} for the count to compare with what was written.
   */
  public VerifyResult verify() {
    return handler.verify();
  }

  /** Entries received since the last reset, rewrites of a key included. */
  public long received() {
    return handler.received();
  }

  /** Empties the table and truncates the write-ahead log, as the service's {@code reset} call does. */
  public void reset() throws IOException {
    try {
      handler.reset();
    } catch (IngestFailure e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** Blocks until the server stops. */
  public void awaitTermination() throws InterruptedException {
    running.await();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      running.stop();
    } finally {
      if (log != null) {
        log.close();
      }
    }
  }
}
