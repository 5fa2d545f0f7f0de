package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.TlsRenegotiation;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each wrong peer fails fast with a message naming the cause, and the server goes on serving good clients. Runs once
 * per server engine.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class TlsFailuresTest {
  private static TestCertificateAuthority ca;
  private static Path dir;
  private static Path serverStore;
  private static Path clientStore;
  private static Path trustStore;
  private ServerTransportFactory serverFactory;
  private EchoServer server;

  @BeforeAll
  static void certificates(TestCertificateAuthority authority, @CertificateDirectory Path directory) {
    ca = authority;
    dir = directory;
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    clientStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").issue(), dir, "client");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    serverFactory.close();
  }

  private void start(SecurityConfig config) throws Exception {
    serverFactory = ServerTransportFactory.create(config);
    server = EchoServer.start(serverFactory);
  }

  /** A TLS server; {@code handshakeTimeout} short only where a test waits for it, since a loaded CI is slow. */
  private void startTls(TlsEngine engine, ClientAuth auth, Duration handshakeTimeout) throws Exception {
    start(TlsTestConfigs.tls(engine, serverStore, trustStore).clientAuth(auth).handshakeTimeout(handshakeTimeout)
        .build());
  }

  /**
   * The client's error: from the handshake, or, when the server rejects the client's certificate, from the first
   * call (in TLS 1.3 the client finishes its handshake before the server has checked its certificate).
   */
  private String clientFailure(TlsEngine engine, SecurityConfig.Builder client) {
    try (ClientTransportFactory factory = ClientTransportFactory.create(client.build())) {
      return assertThrows(TTransportException.class, () -> {
        try (SecuredTransport transport = factory.open("localhost", server.port())) {
          EchoServer.client(transport).echo(ByteBuffer.allocate(1));
        }
      }).getMessage().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A good client still gets served: the failure harmed only its own connection. */
  private void goodClientIsServed(TlsEngine engine) throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(
            TlsTestConfigs.tls(engine, clientStore, trustStore).build());
         SecuredTransport transport = factory.open("localhost", server.port())) {
      assertEquals(ByteBuffer.wrap(new byte[] {1, 2}),
          EchoServer.client(transport).echo(ByteBuffer.wrap(new byte[] {1, 2})));
    }
  }

  @EachTlsEngine
  void certificateProblemsAreNamed(TlsEngine engine) throws Exception {
    startTls(engine, ClientAuth.NEED, Duration.ofSeconds(10));
    Path other = TlsTestConfigs.trustStore(TestCertificateAuthority.create("another CA", KeyType.RSA),
        dir.resolve("other-" + engine));
    assertContains(clientFailure(engine, TlsTestConfigs.tls(engine, clientStore, other)),
        "the server's certificate is not issued by a CA in the trust store " + other);
    assertContains(rejectedClient(engine, null),
        "the client sent no certificate, but securethrift.tls.client.auth=need");
    assertContains(rejectedClient(engine, TlsTestConfigs.keyStore(ca.expired(), dir, "expired-" + engine)),
        "the client's certificate has expired");
    // A client holding only a certificate from another CA offers none: the server named the CAs it accepts.
    assertContains(rejectedClient(engine, TlsTestConfigs.keyStore(ca.signedByOtherCa(), dir, "foreign-" + engine)),
        "the client sent no certificate");
    goodClientIsServed(engine);
  }

  @EachTlsEngine
  void serverCertificateProblemsAreNamed(TlsEngine engine) throws Exception {
    start(TlsTestConfigs.tls(engine, TlsTestConfigs.keyStore(ca.expired(), dir, "expired-server-" + engine),
        trustStore).build());
    assertContains(clientFailure(engine, TlsTestConfigs.tls(engine, null, trustStore)),
        "the server's certificate has expired");
    stop();
    start(TlsTestConfigs.tls(engine, TlsTestConfigs.keyStore(ca.wrongSubjectAlternativeName(), dir,
        "wrong-san-" + engine), trustStore).build());
    assertContains(clientFailure(engine, TlsTestConfigs.tls(engine, null, trustStore)),
        "the server's certificate does not name the host dialled");
    try (ClientTransportFactory lax = ClientTransportFactory.create(
            TlsTestConfigs.tls(engine, null, trustStore).hostnameVerification(false).build());
         SecuredTransport transport = lax.open("localhost", server.port())) {
      assertEquals("wrong.example", transport.peerIdentity().principal().orElseThrow());
    }
  }

  @EachTlsEngine
  void nonTlsPeersAreDroppedAndNamed(TlsEngine engine) throws Exception {
    startTls(engine, ClientAuth.NONE, Duration.ofMillis(700));
    // A plaintext Thrift client on the TLS port: the server drops it and the client sees the connection end.
    try (ClientTransportFactory plain = ClientTransportFactory.create(SecurityConfig.builder().build());
         SecuredTransport transport = plain.open("localhost", server.port())) {
      Exception e = assertThrows(Exception.class, () -> EchoServer.client(transport).echo(ByteBuffer.allocate(4)));
      assertTrue(e instanceof TTransportException, e.toString());
    }
    // Random bytes instead of a ClientHello, then an idle client: both dropped by the server.
    byte[] junk = new byte[64];
    new Random(1).nextBytes(junk);
    junk[0] = 0x47;
    assertDropped(junk);
    assertDropped(new byte[0]);
    assertContains(ServerSideFailure.of(serverFactory, ServerSideFailure.raw(junk)),
        "the client did not send a tls handshake message");
    assertContains(ServerSideFailure.of(serverFactory, ServerSideFailure.raw(
        "\0\0\0\u0010plaintext thrift".getBytes(java.nio.charset.StandardCharsets.US_ASCII))),
        "the client did not send a tls handshake message");
    assertContains(ServerSideFailure.of(serverFactory, ServerSideFailure.raw(new byte[0])),
        "securethrift.timeout.handshake");
    // TLS 1.1 only: JSSE's client is told no version is shared.
    SSLContext old = SSLContext.getInstance("TLS");
    old.init(null, null, null);
    try (Socket tcp = new Socket("localhost", server.port());
         SSLSocket tls = (SSLSocket) old.getSocketFactory().createSocket(tcp, "localhost", server.port(), true)) {
      tls.setEnabledProtocols(new String[] {"TLSv1.1"});
      Exception e = assertThrows(Exception.class, tls::startHandshake);
      assertTrue(e.getMessage().contains("No appropriate protocol") || e.getMessage().contains("protocol_version"),
          e.getMessage());
    }
    goodClientIsServed(engine);
  }

  @EachTlsEngine
  void tlsClientOnAPlaintextPortIsTold(TlsEngine engine) throws Exception {
    start(SecurityConfig.builder().build());
    assertContains(clientFailure(engine, TlsTestConfigs.tls(engine, null, trustStore)),
        "closed the connection during the TLS handshake (is it a plaintext port");
  }

  /** The server's reason for refusing a client that presents {@code keyStore} (none when null). */
  private String rejectedClient(TlsEngine engine, Path keyStore) throws Exception {
    try (ClientTransportFactory factory = ClientTransportFactory.create(
        TlsTestConfigs.tls(engine, keyStore, trustStore).build())) {
      return ServerSideFailure.of(serverFactory, port -> {
        try (var transport = factory.open("localhost", port)) {
          EchoServer.client(transport).echo(ByteBuffer.allocate(1));
        }
      });
    }
  }

  /** The server closes a connection that sent {@code bytes} and then nothing, within the handshake timeout. */
  /**
   * A TLS 1.2 client that renegotiates after its first call, with a fresh session (a full handshake: a signature by the
   * server, another certificate chance) is cut off; the server goes on serving others. JSSE servers would run it.
   */
  @EachTlsEngine
  void clientRenegotiationIsRefused(TlsEngine engine) throws Exception {
    start(TlsTestConfigs.server(engine, serverStore, trustStore, ClientAuth.NEED, "TLSv1.2"));
    TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters();
    params.setKeyStore(clientStore.toString(), new String(TlsTestConfigs.PASSWORD), null, "PKCS12");
    params.setTrustStore(trustStore.toString(), new String(TlsTestConfigs.PASSWORD), null, "PKCS12");
    TSocket socket = TSSLTransportFactory.getClientSocket("localhost", server.port(), 20_000, params);
    try (TFramedTransport framed = new TFramedTransport(socket)) {
      EchoService.Client client = EchoServer.client(framed);
      assertEquals(ByteBuffer.wrap(new byte[] {7}), client.echo(ByteBuffer.wrap(new byte[] {7})));
      TlsRenegotiation.assertRefused(socket, () -> client.echo(ByteBuffer.wrap(new byte[] {8})));
    }
    goodClientIsServed(engine);
  }

  private void assertDropped(byte[] bytes) throws Exception {
    try (Socket socket = new Socket("localhost", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      long start = System.nanoTime();
      while (in.read() >= 0) {
        // Discard any alert the server sends before closing.
      }
      assertTrue(System.nanoTime() - start < Duration.ofSeconds(8).toNanos(), "dropped within the handshake timeout");
    }
  }

  private static void assertContains(String message, String expected) {
    assertTrue(message.contains(expected.toLowerCase(java.util.Locale.ROOT)),
        "expected '" + expected + "' in: " + message);
  }
}
