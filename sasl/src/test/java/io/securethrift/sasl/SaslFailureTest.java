package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.testing.AllocationMeter;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every way a negotiation can go wrong fails with a specific message and leaves the server serving other clients. The
 * server is DIGEST-MD5, which every runtime has, so framing and limits are checked on trimmed runtimes too; the
 * failures particular to Kerberos are {@link GssapiFailureTest}'s.
 */
class SaslFailureTest {
  private static final Duration HANDSHAKE = Duration.ofMillis(800);
  private static ServerTransportFactory serverFactory;
  private static EchoServer server;
  private static ClientTransportFactory goodClient;

  @BeforeAll
  static void start() throws Exception {
    serverFactory = ServerTransportFactory.create(SaslConfigs.digestServer().qop(QualityOfProtection.AUTH_CONF)
        .handshakeTimeout(HANDSHAKE).build());
    server = EchoServer.start(serverFactory);
    goodClient = ClientTransportFactory.create(SaslConfigs.digestClient().qop(QualityOfProtection.AUTH_CONF).build());
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    goodClient.close();
    serverFactory.close();
  }

  private static void serverStillServes() throws Exception {
    try (SecuredTransport transport = goodClient.open(SaslConfigs.HOST, server.port())) {
      ByteBuffer one = ByteBuffer.wrap(new byte[] {42});
      assertEquals(one, EchoServer.client(transport).echo(one.duplicate()));
    }
  }

  private static Socket raw() throws IOException {
    Socket socket = new Socket(SaslConfigs.HOST, server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /** What a failed negotiation measured on the thread that ran it. */
  private static final class Refusal {
    final TTransportException error;
    final long allocatedBytes;

    Refusal(TTransportException error, long allocatedBytes) {
      this.error = error;
      this.allocatedBytes = allocatedBytes;
    }
  }

  /**
   * Runs the server layer directly (on this thread, so its allocations can be counted) against a client that sends
   * {@code wire} and then, if {@code endStream}, closes its output.
   */
  private static Refusal negotiateAgainst(SecurityConfig config, byte[] wire, boolean endStream) throws Exception {
    try (MessageLayer layer =
            new SaslLayerProvider().messageLayer(config, Role.SERVER, TestIdentities.issuer()).orElseThrow();
        ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(listening.getInetAddress(), listening.getLocalPort());
        Socket accepted = listening.accept()) {
      client.getOutputStream().write(wire);
      client.getOutputStream().flush();
      if (endStream) {
        client.shutdownOutput();
      }
      PeerIdentity peer = TestIdentities.builder(SecurityMode.SASL,
          (InetSocketAddress) accepted.getRemoteSocketAddress()).build();
      TSocket stream = new TSocket(accepted);
      long before = AllocationMeter.allocatedBytes();
      TTransportException e = assertThrows(TTransportException.class, () -> layer.open(stream, peer, null));
      return new Refusal(e, AllocationMeter.allocatedBytes() - before);
    }
  }

  /** A negotiation message header (status, 4-byte length) followed by {@code payload}. */
  private static byte[] message(int status, int declaredLength, byte[] payload) {
    return ByteBuffer.allocate(5 + payload.length).put((byte) status).putInt(declaredLength).put(payload).array();
  }

  @Test
  void hugeLengthBeforeAuthenticationIsRefusedWithoutAllocating() throws Exception {
    Refusal r = negotiateAgainst(serverFactory.config(), message(1, Integer.MAX_VALUE, new byte[10]), false);
    assertTrue(r.error.getMessage().endsWith("failed: frame header declares 2147483647 bytes, more than"
        + " securethrift.limit.max.negotiation.message.size (65536 bytes); raise the limit if the peer really"
        + " sends messages this large"), r.error.getMessage());
    assertTrue(r.allocatedBytes < 256 * 1024, "allocated " + r.allocatedBytes + " bytes for a 2 GiB header");
    try (Socket socket = raw()) {
      socket.getOutputStream().write(message(1, Integer.MAX_VALUE, new byte[0]));
      socket.getOutputStream().flush();
      assertTrue(SaslWire.read(socket).startsWith("3:frame header declares 2147483647 bytes"));
    }
    serverStillServes();
  }

  @Test
  void unknownMechanismGetsBadWithTheReason() throws Exception {
    try (Socket socket = raw()) {
      SaslWire.send(socket, 1, "PLAIN".getBytes(StandardCharsets.US_ASCII));
      assertEquals("3:Unsupported mechanism type PLAIN", SaslWire.read(socket));
      assertEquals(-1, socket.getInputStream().read());
    }
    try (Socket socket = raw()) {
      SaslWire.send(socket, 1, "gss\napi".getBytes(StandardCharsets.UTF_8));
      assertEquals("3:invalid SASL mechanism name (7 bytes)", SaslWire.read(socket));
    }
    serverStillServes();
  }

  @Test
  void truncatedFrameIsReportedWithHowMuchArrived() throws Exception {
    Refusal r = negotiateAgainst(serverFactory.config(),
        message(1, 6, "GSS".getBytes(StandardCharsets.US_ASCII)), true);
    // libthrift 0.25's socket reports the closed stream itself; older ones let the frame reader count the bytes.
    String closed = "failed: the client closed the connection before it sent a whole START message: ";
    assertTrue(r.error.getMessage().endsWith(closed + "connection closed after 3 of 6 bytes of a frame")
        || r.error.getMessage().endsWith(closed + "Socket is closed by peer."), r.error.getMessage());
    serverStillServes();
  }

  @Test
  void clientThatStopsMidHandshakeIsDroppedAfterTheHandshakeTimeout() throws Exception {
    try (Socket socket = raw()) {
      SaslWire.send(socket, 1, "DIGEST-MD5".getBytes(StandardCharsets.US_ASCII));
      long start = System.nanoTime();
      serverStillServes();
      assertEquals(-1, socket.getInputStream().read(), "server must close the stalled connection");
      long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertTrue(waited >= HANDSHAKE.toMillis() - 100 && waited < 8_000, "closed after " + waited + " ms");
    }
  }

  @Test
  void digestQopMismatchNamesBothListsExactly() throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(SaslConfigs.digestServer()
            .qop(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT).build());
        EchoServer digest = EchoServer.start(factory);
        ClientTransportFactory clients = ClientTransportFactory.create(
            SaslConfigs.digestClient().qop(QualityOfProtection.AUTH).build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, digest.port()));
      assertEquals("SASL DIGEST-MD5 negotiation with localhost failed: no SASL quality of protection acceptable to"
          + " both sides: client accepts [auth], server offers [auth-conf, auth-int]", e.getMessage());
    }
  }

  @Test
  void unknownDelegationTokenIsRefused() throws Exception {
    SecurityConfig forged = SaslConfigs.base(SaslMechanism.DIGEST_MD5, java.util.List.of(QualityOfProtection.AUTH))
        .delegationToken(new io.securethrift.core.DelegationToken(new byte[] {1, 2}, new byte[] {3})).build();
    try (ServerTransportFactory factory = ServerTransportFactory.create(
            SaslConfigs.digestServer().qop(QualityOfProtection.AUTH).build());
        EchoServer digest = EchoServer.start(factory);
        ClientTransportFactory clients = ClientTransportFactory.create(forged)) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, digest.port()));
      assertTrue(e.getMessage().startsWith("SASL DIGEST-MD5 negotiation with localhost failed: Peer indicated"
          + " failure: "), e.getMessage());
      assertEquals("SASL DIGEST-MD5 negotiation with localhost failed: Peer indicated failure: authentication failed",
          e.getMessage());
      // A live identifier with a wrong password gets the same reply: nothing tells a peer which identifiers live.
      SecurityConfig wrongPassword = SaslConfigs.base(SaslMechanism.DIGEST_MD5,
          java.util.List.of(QualityOfProtection.AUTH)).delegationToken(new io.securethrift.core.DelegationToken(
              SaslConfigs.TOKEN.identifier(), new byte[] {3})).build();
      try (ClientTransportFactory guessing = ClientTransportFactory.create(wrongPassword)) {
        assertEquals(e.getMessage(), assertThrows(TTransportException.class,
            () -> guessing.open(SaslConfigs.HOST, digest.port())).getMessage());
      }
      Await.until("both refusals counted", Duration.ofSeconds(30), () -> factory.counters().failures() == 2);
      assertEquals(1, factory.counters().failures(AuthFailure.UNKNOWN_PRINCIPAL), "the audit keeps the reason");
    }
  }

  @Test
  void malformedImpersonationRulesFailServerCreationNamingTheKey() {
    SecurityConfig config = SaslConfigs.digestServer().userImpersonation("proxy@EX.COM:alice@EX.COM")
        .hostImpersonation("gw1,,gw2").build();
    ConfigException e = assertThrows(ConfigException.class, () -> ServerTransportFactory.create(config));
    assertEquals("securethrift.sasl.impersonation.hosts: 'gw1,,gw2' has an empty name; separate names with single"
        + " commas", e.getMessage());
  }
}
