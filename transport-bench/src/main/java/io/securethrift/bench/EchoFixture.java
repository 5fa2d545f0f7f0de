package io.securethrift.bench;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import org.apache.thrift.transport.TTransportException;

/**
 * An echo server and a client factory for one security set-up, the same for every mode: the server is the blocking
 * {@code TThreadPoolServer} whatever the configuration, so a benchmark compares the security layers and not server
 * models (the mistake that muddles Accumulo's published SSL/SASL numbers). Benchmarks of any mode (none, TLS, SASL)
 * build their {@link SecurityConfig}s and hand them here.
 */
public final class EchoFixture implements AutoCloseable {
  /** The loopback name clients dial; test certificates carry it as a DNS subject alternative name. */
  public static final String HOST = "localhost";

  private final ServerTransportFactory serverFactory;
  private final ClientTransportFactory clientFactory;
  private final EchoServer server;

  private EchoFixture(ServerTransportFactory serverFactory, ClientTransportFactory clientFactory, EchoServer server) {
    this.serverFactory = serverFactory;
    this.clientFactory = clientFactory;
    this.server = server;
  }

  /**
   * Starts an echo server for {@code serverConfig} on a free loopback port and prepares clients for
   * {@code clientConfig}. Whatever was started is stopped again if a later step fails.
   */
  public static EchoFixture start(SecurityConfig serverConfig, SecurityConfig clientConfig) throws Exception {
    ServerTransportFactory serverFactory = ServerTransportFactory.create(serverConfig);
    try {
      ClientTransportFactory clientFactory = ClientTransportFactory.create(clientConfig);
      try {
        return new EchoFixture(serverFactory, clientFactory, EchoServer.start(serverFactory));
      } catch (Exception | Error e) {
        clientFactory.close();
        throw e;
      }
    } catch (Exception | Error e) {
      serverFactory.close();
      throw e;
    }
  }

  /** Opens a new connection (TCP connect plus the mode's handshake) and returns an echo client on it. */
  public EchoConnection connect() throws TTransportException {
    SecuredTransport transport = clientFactory.open(HOST, server.port());
    return new EchoConnection(transport);
  }

  /** The factory clients open connections with, for benchmarks that measure the handshake alone. */
  public ClientTransportFactory clientFactory() {
    return clientFactory;
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() throws InterruptedException {
    try {
      server.close();
    } finally {
      clientFactory.close();
      serverFactory.close();
    }
  }
}
