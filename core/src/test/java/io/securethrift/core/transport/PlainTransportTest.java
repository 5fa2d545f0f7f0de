package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testservice.EchoFailure;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Plain mode end to end: a real TThreadPoolServer on loopback, real sockets, framed transport. */
class PlainTransportTest {
  private static final SecurityConfig CONFIG = SecurityConfig.builder()
      .maxFrameSize(4L << 20).readTimeout(Duration.ofSeconds(30)).build();
  private static ServerTransportFactory serverFactory;
  private static ClientTransportFactory clientFactory;
  private static EchoServer server;

  @BeforeAll
  static void start() throws Exception {
    serverFactory = ServerTransportFactory.create(CONFIG);
    clientFactory = ClientTransportFactory.create(CONFIG);
    server = EchoServer.start(serverFactory);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    clientFactory.close();
    serverFactory.close();
  }

  @Test
  void echoesMessagesOfEverySizeUpToTheLimit() throws Exception {
    try (SecuredTransport transport = clientFactory.open("127.0.0.1", server.port())) {
      EchoServer.assertEchoes(EchoServer.client(transport), 0, 1, 128, 1024, 65536, 1 << 20, (4 << 20) - 64);
      assertEquals(SecurityMode.NONE, transport.peerIdentity().mode());
    }
  }

  @Test
  void serviceSeesTheCallersIdentityAndErrorsCrossTheWire() throws Exception {
    try (SecuredTransport transport = clientFactory.open("127.0.0.1", server.port())) {
      var client = EchoServer.client(transport);
      String who = client.whoAmI();
      assertTrue(who.matches("PeerIdentity\\[none /127\\.0\\.0\\.1:\\d+]"), who);
      EchoFailure failure = assertThrows(EchoFailure.class, () -> client.fail("boom"));
      assertEquals("boom", failure.getMessage());
    }
    assertTrue(PeerIdentity.current().isEmpty());
  }

  @Test
  void outgoingMessageOverTheLimitIsRefusedBeforeSending() throws Exception {
    try (SecuredTransport transport = clientFactory.open("127.0.0.1", server.port())) {
      var client = EchoServer.client(transport);
      TTransportException e = assertThrows(TTransportException.class,
          () -> client.echo(ByteBuffer.allocate(5 << 20)));
      assertEquals("outgoing message is larger than securethrift.limit.max.frame.size (4194304 bytes); the peer would"
          + " refuse it", e.getMessage());
    }
  }

  @Test
  void oversizedFrameHeaderClosesTheConnectionAndTheServerKeepsServing() throws Exception {
    try (Socket raw = new Socket("127.0.0.1", server.port())) {
      raw.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(raw.getOutputStream());
      out.writeInt(Integer.MAX_VALUE);
      out.flush();
      InputStream in = raw.getInputStream();
      assertEquals(-1, in.read(), "server must close the connection");
    }
    try (SecuredTransport transport = clientFactory.open("127.0.0.1", server.port())) {
      assertEquals(ByteBuffer.wrap(new byte[] {7}), EchoServer.client(transport).echo(ByteBuffer.wrap(new byte[] {7})));
    }
  }

  /**
   * A stream of connections that each send a frame over the limit: each is closed, and the main log gets one warning
   * for them all (a flood cannot fill the log); a malformed message, another kind, gets its own.
   */
  @Test
  void refusedFramesAreWarnedOncePerWindow() throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(CONFIG);
        EchoServer own = EchoServer.start(factory)) {
      for (int i = 0; i < 5; i++) {
        sendAndAwaitClose(own.port(), new byte[] {0x7f, -1, -1, -1});
      }
      // A whole frame whose message begins with a byte no protocol header has.
      sendAndAwaitClose(own.port(), new byte[] {0, 0, 0, 4, 1, 2, 3, 4});
      List<String> warnings = log.lines("closing connection with");
      assertEquals(2, warnings.size(), log.text());
      assertTrue(warnings.get(0).contains("securethrift.limit.max.frame.size"), warnings.get(0));
      assertTrue(warnings.get(1).contains("malformed message"), warnings.get(1));
    }
  }

  /** Sends {@code bytes} on a new connection and waits until the server closes it. */
  private static void sendAndAwaitClose(int port, byte[] bytes) throws Exception {
    try (Socket raw = new Socket("127.0.0.1", port)) {
      raw.setSoTimeout(10_000);
      raw.getOutputStream().write(bytes);
      raw.getOutputStream().flush();
      assertEquals(-1, raw.getInputStream().read(), "the server closes the connection");
    }
  }

  @Test
  void connectFailureNamesThePeerAndTheTimeoutSetting() throws Exception {
    int port;
    try (ServerSocket unused = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = unused.getLocalPort();
    }
    int closedPort = port;
    TTransportException e = assertThrows(TTransportException.class, () -> clientFactory.open("127.0.0.1", closedPort));
    assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:" + closedPort
        + " within 10s (securethrift.timeout.connect): Connection refused"), e.getMessage());
  }

  @Test
  void readTimeoutEndsAWaitForAnAnswerThatNeverComes() throws Exception {
    SecurityConfig quick = CONFIG.toBuilder().readTimeout(Duration.ofMillis(300)).build();
    try (ServerSocket silent = new ServerSocket();
        ClientTransportFactory factory = ClientTransportFactory.create(quick)) {
      silent.bind(new InetSocketAddress("127.0.0.1", 0));
      try (SecuredTransport transport = factory.open("127.0.0.1", silent.getLocalPort());
          Socket accepted = silent.accept()) {
        var client = EchoServer.client(transport);
        TTransportException e = assertThrows(TTransportException.class, () -> client.whoAmI());
        assertTrue(e.getCause() instanceof java.net.SocketTimeoutException, String.valueOf(e.getCause()));
        assertTrue(accepted.isConnected());
      }
    }
  }

  /** A server that accepts and never reads: the client's write gets as long as a read would, then says why. */
  @Test
  void writeToAPeerThatNeverReadsEndsAtTheReadTimeoutNamingIt() throws Exception {
    SecurityConfig quick = CONFIG.toBuilder().readTimeout(Duration.ofMillis(500)).build();
    try (ServerSocket silent = new ServerSocket();
        ClientTransportFactory factory = ClientTransportFactory.create(quick)) {
      silent.setReceiveBufferSize(4096);
      silent.bind(new InetSocketAddress("127.0.0.1", 0));
      try (SecuredTransport transport = factory.open("127.0.0.1", silent.getLocalPort());
          Socket accepted = silent.accept()) {
        var client = EchoServer.client(transport);
        TTransportException e = assertThrows(TTransportException.class,
            () -> client.echo(ByteBuffer.allocate(3 << 20)));
        assertEquals(TTransportException.TIMED_OUT, e.getType());
        assertTrue(e.getMessage().startsWith("writing to 127.0.0.1:" + silent.getLocalPort() + " failed: the peer"
            + " took nothing for 500ms (securethrift.timeout.read), so the connection was closed"), e.getMessage());
        assertTrue(accepted.isConnected());
      }
    }
  }

  @Test
  void modesWhoseModuleIsMissingAreRefusedWithTheModuleName() {
    SecurityConfig tls = SecurityConfig.builder().mode(SecurityMode.TLS).build();
    ConfigException e = assertThrows(ConfigException.class, () -> ClientTransportFactory.create(tls));
    assertEquals("securethrift.mode: 'tls' needs the securethrift-tls module on the class path",
        e.getMessage());
    SecurityConfig sasl = SecurityConfig.builder().mode(SecurityMode.SASL).build();
    e = assertThrows(ConfigException.class, () -> ServerTransportFactory.create(sasl));
    assertEquals("securethrift.mode: 'sasl' needs the securethrift-sasl module on the class path", e.getMessage());
  }
}
