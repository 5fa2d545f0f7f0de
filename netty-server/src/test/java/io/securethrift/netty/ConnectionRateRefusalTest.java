package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.netty.TlsEchoServer.Model;
import io.securethrift.netty.TlsEchoServer.Stores;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection rate limits refuse on both server models: a connection over the rate is closed as it is accepted,
 * before the server reads a byte of it, counted and audited as {@code over-limit} with the limit's key, while other
 * addresses are still served. How a legitimate client fares under a flood is {@link ConnectionRateFloodTest}'s.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class ConnectionRateRefusalTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Pattern FROM_127_0_0_2 = Pattern.compile(" peer=/127\\.0\\.0\\.2:(\\d+) ");

  private static Stores stores;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    stores = Stores.write(ca, dir);
  }

  /**
   * One connection a second from 127.0.0.2: of ten opened in a row, at most one more than the seconds they take is
   * admitted. Nothing is sent on them; the one a refusal's audit line names reads the end of the stream, so the server
   * closed it without waiting for a ClientHello, while the admitted ones wait for theirs.
   */
  @ParameterizedTest
  @EnumSource(Model.class)
  void aConnectionOverTheRateIsClosedBeforeItsHandshake(Model model) throws Exception {
    SecurityConfig serverConfig = stores.server(TlsEngine.JSSE).connectionRatePerAddress(1).build();
    List<Socket> sockets = new ArrayList<>();
    try (LogCapture log = LogCapture.start();
        TlsEchoServer server = TlsEchoServer.start(model, serverConfig);
        ClientTransportFactory clients = ClientTransportFactory.create(stores.client(TlsEngine.JSSE).build())) {
      AuthCounters counters = server.counters();
      try {
        for (int i = 0; i < 10; i++) {
          Socket socket = new Socket();
          sockets.add(socket);
          socket.bind(new InetSocketAddress("127.0.0.2", 0));
          socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
        }
        Await.until("a connection from 127.0.0.2 refused", WAIT, () -> counters.failures(AuthFailure.OVER_LIMIT) > 0);
        String refusal = log.awaitLines(" cause=over-limit ", 1, WAIT).get(0);
        assertTrue(refusal.contains(" stage=tls ") && refusal.contains(" handshake_ms=0 ")
            && refusal.contains(ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS.key() + " reached"), refusal);
        Matcher peer = FROM_127_0_0_2.matcher(refusal);
        assertTrue(peer.find(), refusal);
        Socket refused = sockets.stream().filter(s -> s.getLocalPort() == Integer.parseInt(peer.group(1)))
            .findFirst().orElseThrow();
        // Only a guard: the end of the stream is there already, or on its way.
        refused.setSoTimeout((int) WAIT.toMillis());
        assertEquals(-1, refused.getInputStream().read(), "no TLS record, not even an alert: closed at accept");
        // The limit is per address: a client from 127.0.0.1 is served meanwhile.
        try (SecuredTransport transport = clients.open("localhost", server.port())) {
          EchoServer.assertEchoes(EchoServer.client(transport), 100);
        }
        assertEquals(1, counters.successes());
      } finally {
        for (Socket socket : sockets) {
          socket.close();
        }
      }
    }
  }

  /**
   * Connections from many addresses together, over {@code securethrift.server.connection.rate.max}: all but one
   * second's worth, and what it refills meanwhile, are closed as accepted and audited under that key.
   */
  @ParameterizedTest
  @EnumSource(Model.class)
  void connectionsOverTheRateInAllAreRefused(Model model) throws Exception {
    int max = 5;
    int connections = 40;
    SecurityConfig serverConfig = stores.server(TlsEngine.JSSE).connectionRateMax(max).build();
    List<Socket> sockets = new ArrayList<>();
    try (LogCapture log = LogCapture.start();
        TlsEchoServer server = TlsEchoServer.start(model, serverConfig)) {
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
      // Each connection ends once: refused at the limit, or admitted and then closed before its handshake.
      AuthCounters counters = server.counters();
      Await.until("every connection audited", WAIT, () -> counters.failures() == connections);
      // Up to here, as the server may accept the last connections after they were closed: the bucket refilled
      // for as long as the server was accepting them, at most.
      double seconds = (System.nanoTime() - start) / 1e9;
      long refused = counters.failures(AuthFailure.OVER_LIMIT);
      long admitted = connections - refused;
      assertTrue(admitted >= max && admitted <= max + Math.ceil(max * seconds) + 1, admitted + " of " + connections
          + " admitted in " + seconds + " s at " + max + " per second");
      List<String> refusals = log.awaitLines(" cause=over-limit ", (int) refused, WAIT);
      assertTrue(refusals.stream().allMatch(l -> l.contains(ConfigProperty.SERVER_CONNECTION_RATE_MAX.key()
          + " reached")), refusals.get(0));
    }
  }
}
