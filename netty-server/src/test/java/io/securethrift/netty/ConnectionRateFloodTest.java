package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection rate limits on both server models and both TLS engines, under real floods on loopback. One address
 * (127.0.0.2) opens connections as fast as one thread can, each sending a real TLS ClientHello, which would cost the
 * server a full handshake (key exchange and signature); its connections over the limit are closed as they are accepted.
 * Meanwhile the TLS handshakes of a legitimate client from 127.0.0.1 are timed: it is served every time, and its
 * median handshake stays within twice the idle one.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class ConnectionRateFloodTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String AUDIT = " " + HandshakeAudit.LOGGER_NAME + " - ";
  /**
   * The flooder's allowance, and the legitimate client's: its warm-up and both phases fit in one burst (one second's
   * worth), so no sample of it depends on how fast its bucket refills.
   */
  private static final int PER_ADDRESS = 50;
  private static final int WARM_UP = 8;
  private static final int SAMPLES = 20;

  private static Path serverStore;
  private static Path trustStore;

  enum Server {
    THREAD_POOL_JSSE, THREAD_POOL_CONSCRYPT, NETTY_JSSE, NETTY_CONSCRYPT
  }

  /** A running server of either model: its port, its counters, and how to stop it. */
  private static final class Running implements AutoCloseable {
    private final int port;
    private final AuthCounters counters;
    private final AutoCloseable stop;

    Running(int port, AuthCounters counters, AutoCloseable stop) {
      this.port = port;
      this.counters = counters;
      this.stop = stop;
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

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  private static SecurityConfig.Builder tls(Server server) {
    return SecurityConfig.builder().mode(SecurityMode.TLS)
        .tlsEngine(server.name().endsWith("CONSCRYPT") ? TlsEngine.CONSCRYPT : TlsEngine.JSSE)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
  }

  private static Running start(Server model, SecurityConfig config) throws Exception {
    if (model.name().startsWith("NETTY")) {
      NettyThriftServer server = NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
          .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
          .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
      return new Running(server.port(), server.counters(), server);
    }
    ServerTransportFactory factory = ServerTransportFactory.create(config);
    EchoServer server = EchoServer.start(factory);
    return new Running(server.port(), factory.counters(), () -> {
      server.close();
      factory.close();
    });
  }

  @ParameterizedTest
  @EnumSource(Server.class)
  void aHandshakeFloodFromOneAddressLeavesALegitimateClientItsLatency(Server model) throws Exception {
    SecurityConfig serverConfig = tls(model).keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .clientAuth(ClientAuth.NONE).connectionRatePerAddress(PER_ADDRESS).connectionRateMax(1000)
        .handshakeTimeout(Duration.ofSeconds(5)).build();
    byte[] clientHello = clientHello();
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicLong opened = new AtomicLong();
    try (LogCapture log = LogCapture.start();
        Running server = start(model, serverConfig);
        ClientTransportFactory clients = ClientTransportFactory.create(tls(model).build())) {
      handshakes(clients, server.port(), WARM_UP);
      long idle = median(handshakes(clients, server.port(), SAMPLES));
      Thread flood = new Thread(() -> flood(server.port(), clientHello, flooding, opened), "flood-from-127.0.0.2");
      flood.start();
      long flooded;
      try {
        // Timed once the flood is refused and its first burst (one second's worth, admitted by design) has been dealt
        // with: each of those connections ends with a failure of another cause, as the flooder never answers.
        Await.until("the flood refused and its burst handled", WAIT,
            () -> server.counters().failures(AuthFailure.OVER_LIMIT) > 200
                && server.counters().failures() - server.counters().failures(AuthFailure.OVER_LIMIT) >= PER_ADDRESS);
        flooded = median(handshakes(clients, server.port(), SAMPLES));
      } finally {
        flooding.set(false);
        flood.join(10_000);
      }
      long refused = server.counters().failures(AuthFailure.OVER_LIMIT);
      System.out.printf("%s: median handshake idle %.2f ms, flooded %.2f ms; %d flood connections, %d refused%n",
          model, idle / 1e6, flooded / 1e6, opened.get(), refused);
      // Twice the idle median, and 2 ms for the scheduler of a 2-core machine whose other core runs the flood.
      assertTrue(flooded <= 2 * idle + 2_000_000, model + ": median handshake " + flooded / 1000 + " µs flooded, "
          + idle / 1000 + " µs idle");
      // The flood's admitted connections never finish a handshake: every success is the legitimate client's.
      assertEquals(2 * SAMPLES + WARM_UP, server.counters().successes());
      String over = "peer=/127.0.0.2:";
      List<String> refusals = log.awaitLines(" cause=over-limit ", 100, WAIT);
      assertTrue(refusals.stream().allMatch(l -> l.contains(over)
          && l.contains(ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS.key() + " reached")), refusals.get(0));
      assertTrue(refusals.get(0).contains(" handshake_ms=0 "), refusals.get(0));
    }
  }

  /**
   * Connections from many addresses together, over {@code securethrift.server.connection.rate.max}: all but one
   * second's worth, and what it refills meanwhile, are closed as accepted and audited under that key.
   */
  @ParameterizedTest
  @EnumSource(value = Server.class, names = {"THREAD_POOL_JSSE", "NETTY_JSSE"})
  void connectionsOverTheRateInAllAreRefused(Server model) throws Exception {
    int max = 5;
    int connections = 40;
    SecurityConfig serverConfig = tls(model).keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .connectionRateMax(max).build();
    List<Socket> sockets = new ArrayList<>();
    try (LogCapture log = LogCapture.start();
        Running server = start(model, serverConfig)) {
      long start = System.nanoTime();
      try {
        for (int i = 0; i < connections; i++) {
          Socket socket = new Socket();
          sockets.add(socket);
          socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0." + (3 + i % 8)), 0));
          socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
        }
      } finally {
        for (Socket socket : sockets) {
          socket.close();
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      // Each connection ends once: refused at the limit, or admitted and then closed before its handshake.
      Await.until("every connection audited", WAIT, () -> server.counters().failures() == connections);
      long refused = server.counters().failures(AuthFailure.OVER_LIMIT);
      long admitted = connections - refused;
      assertTrue(admitted >= max && admitted <= max + Math.ceil(max * seconds) + 1, admitted + " of " + connections
          + " admitted in " + seconds + " s at " + max + " per second");
      List<String> refusals = log.awaitLines(" cause=over-limit ", (int) refused, WAIT);
      assertTrue(refusals.stream().allMatch(l -> l.contains(ConfigProperty.SERVER_CONNECTION_RATE_MAX.key()
          + " reached")), refusals.get(0));
    }
  }

  /** Opens connections from 127.0.0.2 as fast as it can, each sending {@code hello} and closing. */
  private static void flood(int port, byte[] hello, AtomicBoolean flooding, AtomicLong opened) {
    InetSocketAddress from = new InetSocketAddress("127.0.0.2", 0);
    InetSocketAddress to = new InetSocketAddress("127.0.0.1", port);
    while (flooding.get()) {
      try (Socket socket = new Socket()) {
        socket.bind(from);
        socket.connect(to);
        opened.incrementAndGet();
        socket.getOutputStream().write(hello);
      } catch (IOException refused) {
        // Closed by the server at once: the flood goes on.
      }
    }
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
}
