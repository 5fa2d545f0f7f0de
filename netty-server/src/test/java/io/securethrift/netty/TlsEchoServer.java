package io.securethrift.netty;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.thrift.protocol.TCompactProtocol;

/**
 * The echo service over TLS on 127.0.0.1, on either server model, for the tests that hold both to the same limits:
 * its port, its handshake counters, and how to stop it.
 */
final class TlsEchoServer implements AutoCloseable {
  private static final char[] PASSWORD = "changeit".toCharArray();

  enum Model {
    /** libthrift's {@code TThreadPoolServer} on {@link ServerTransportFactory#listen}. */
    THREAD_POOL,
    NETTY
  }

  private final int port;
  private final AuthCounters counters;
  private final AutoCloseable stop;

  private TlsEchoServer(int port, AuthCounters counters, AutoCloseable stop) {
    this.port = port;
    this.counters = counters;
    this.stop = stop;
  }

  /**
   * Key stores for the server and for a client named bob, and a trust store holding the test CA, all PKCS#12 with
   * {@link #PASSWORD}.
   */
  static final class Stores {
    private final Path serverStore;
    private final Path clientStore;
    private final Path trustStore;

    private Stores(Path serverStore, Path clientStore, Path trustStore) {
      this.serverStore = serverStore;
      this.clientStore = clientStore;
      this.trustStore = trustStore;
    }

    /** Issues the server's and bob's certificates from {@code ca} and writes the stores into {@code dir}. */
    static Stores write(TestCertificateAuthority ca, Path dir) {
      return new Stores(ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD),
          ca.leaf().commonName("bob").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12, PASSWORD),
          ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD));
    }

    /** One side of mutual TLS on {@code engine}: its own key store, client certificates required. */
    SecurityConfig.Builder mutual(TlsEngine engine, boolean server) {
      return client(engine).keyStore(server ? serverStore : clientStore, StoreType.PKCS12, Secret.of(PASSWORD))
          .clientAuth(ClientAuth.NEED);
    }

    /** A client's settings: TLS on {@code engine}, trusting the test CA. */
    SecurityConfig.Builder client(TlsEngine engine) {
      return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
          .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
    }

    /** A server's settings: {@link #client}'s with the server's key store, asking clients for no certificate. */
    SecurityConfig.Builder server(TlsEngine engine) {
      return client(engine).keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NONE);
    }
  }

  static TlsEchoServer start(Model model, SecurityConfig config) throws Exception {
    if (model == Model.NETTY) {
      NettyThriftServer server = NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
          .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
          .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
      return new TlsEchoServer(server.port(), server.counters(), server);
    }
    ServerTransportFactory factory = ServerTransportFactory.create(config);
    EchoServer server = EchoServer.start(factory);
    return new TlsEchoServer(server.port(), factory.counters(), () -> {
      server.close();
      factory.close();
    });
  }

  int port() {
    return port;
  }

  AuthCounters counters() {
    return counters;
  }

  @Override
  public void close() throws Exception {
    stop.close();
  }
}
