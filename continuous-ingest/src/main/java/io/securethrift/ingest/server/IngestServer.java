package io.securethrift.ingest.server;

import io.securethrift.core.AuthCounters;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.ServerTransportFactory;
import io.securethrift.ingest.thrift.IngestService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The embedded ingest backend: the ingest service on a {@link TThreadPoolServer} (Accumulo's SSL and SASL server
 * model, used for every mode so only the security layer differs), secured by a securethrift server factory.
 */
public final class IngestServer implements AutoCloseable {
  private final ServerTransportFactory factory;
  private final TThreadPoolServer server;
  private final WriteAheadLog log;
  private final Thread thread;
  private final int port;

  private IngestServer(ServerTransportFactory factory, TServerSocket socket, WriteAheadLog log) {
    this.factory = factory;
    this.log = log;
    this.port = ServerTransportFactory.port(socket);
    this.server = new TThreadPoolServer(factory
        .threadPoolServerArgs(socket, new IngestService.Processor<>(new IngestHandler(log)))
        .protocolFactory(new TCompactProtocol.Factory())
        .minWorkerThreads(4)
        .maxWorkerThreads(64)
        .stopTimeoutVal(5)
        .stopTimeoutUnit(TimeUnit.SECONDS));
    this.thread = new Thread(server::serve, "ingest-server-" + port);
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free one).
   *
   * @param writeAheadLog a file to log every batch to, or null for none
   */
  public static IngestServer start(SecurityConfig config, InetSocketAddress address, Path writeAheadLog)
      throws TTransportException, IOException {
    ServerTransportFactory factory = ServerTransportFactory.create(config);
    try {
      TServerSocket socket = factory.listen(address);
      IngestServer server = new IngestServer(factory, socket, writeAheadLog == null ? null
          : new WriteAheadLog(writeAheadLog));
      server.thread.start();
      return server;
    } catch (TTransportException | IOException | RuntimeException e) {
      factory.close();
      throw e;
    }
  }

  public int port() {
    return port;
  }

  /** Handshakes accepted and refused so far, by protection and by cause. */
  public AuthCounters counters() {
    return factory.counters();
  }

  /** Blocks until the server stops. */
  public void awaitTermination() throws InterruptedException {
    thread.join();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    server.stop();
    thread.join(TimeUnit.SECONDS.toMillis(30));
    factory.close();
    if (log != null) {
      log.close();
    }
  }
}
