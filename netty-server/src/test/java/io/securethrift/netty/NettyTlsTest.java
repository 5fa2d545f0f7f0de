package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.TlsRenegotiation;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TSSLTransportFactory;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** TLS with client authentication on the non-blocking server, both engines, and idle peers that hold no thread. */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyTlsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static Path serverStore;
  private static Path clientStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    clientStore = ca.leaf().commonName("alice").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12, PASSWORD);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  private static SecurityConfig.Builder tls(TlsEngine engine, Path keyStore) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NEED);
  }

  /** The echo service on a free loopback port, for this module's TLS tests. */
  static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  @EachTlsEngine
  void mutualTlsServesAndMapsTheClientCertificate(TlsEngine engine) throws Exception {
    try (NettyThriftServer server = start(tls(engine, serverStore).build());
        ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, clientStore).build());
        SecuredTransport transport = clients.open("localhost", server.port())) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
      byte[] payload = new byte[200_000];
      assertArrayEquals(payload, toArray(client.echo(ByteBuffer.wrap(payload))));
      String who = client.whoAmI();
      assertTrue(who.contains("principal=alice") && who.contains("TLSv1.3"), who);
    }
  }

  /** Key rotation is the TLS layer's: a renewed key store (same names, new key and serial) reaches new handshakes. */
  @EachTlsEngine
  void newHandshakesUseARotatedCertificate(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate before = ca.leaf().commonName("server").addSubjectAlternativeName("localhost").issue();
    Path rotating = before.writeKeyStore(dir, "rotating-" + engine, KeyStoreFormat.PKCS12, PASSWORD);
    SecurityConfig server = tls(engine, rotating).clientAuth(ClientAuth.NONE).tlsReloadInterval(Duration.ofMillis(1))
        .build();
    SecurityConfig client = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
    try (NettyThriftServer netty = start(server);
        ClientTransportFactory clients = ClientTransportFactory.create(client);
        SecuredTransport open = clients.open("localhost", netty.port())) {
      assertEquals(serial(before), serial(open));
      IssuedCertificate after = ca.leaf().commonName("server").addSubjectAlternativeName("localhost").issue();
      after.writeKeyStore(dir, "rotating-" + engine, KeyStoreFormat.PKCS12, PASSWORD);
      BigInteger seen = serial(before);
      for (int attempt = 0; attempt < 50 && seen.equals(serial(before)); attempt++) {
        try (SecuredTransport fresh = clients.open("localhost", netty.port())) {
          seen = serial(fresh);
        }
      }
      assertEquals(serial(after), seen);
      assertEquals(serial(before), serial(open));
      EchoService.Client service = new EchoService.Client(open.protocol(new TCompactProtocol.Factory()));
      assertArrayEquals(new byte[] {9}, toArray(service.echo(ByteBuffer.wrap(new byte[] {9}))));
    }
  }

  private static BigInteger serial(IssuedCertificate certificate) {
    return certificate.certificate().getSerialNumber();
  }

  private static BigInteger serial(SecuredTransport transport) {
    return transport.peerIdentity().peerCertificates().get(0).getSerialNumber();
  }

  /**
   * Accumulo's TLS client: libthrift's TSSLTransportFactory socket under TFramedTransport, with a client certificate.
   */
  @EachTlsEngine
  void libthriftTlsClient(TlsEngine engine) throws Exception {
    try (NettyThriftServer server = start(tls(engine, serverStore).build())) {
      TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters("TLS",
          null);
      params.setTrustStore(trustStore.toString(), new String(PASSWORD), null, "PKCS12");
      params.setKeyStore(clientStore.toString(), new String(PASSWORD), null, "PKCS12");
      TTransport transport = new TFramedTransport(TSSLTransportFactory.getClientSocket("localhost", server.port(),
          10_000, params));
      try {
        EchoService.Client client = new EchoService.Client(new TCompactProtocol(transport));
        byte[] payload = new byte[100_000];
        assertArrayEquals(payload, toArray(client.echo(ByteBuffer.wrap(payload))));
        assertTrue(client.whoAmI().contains("principal=alice"));
      } finally {
        transport.close();
      }
    }
  }

  /**
   * A TLS 1.2 client that renegotiates with a fresh session after its first call is cut off, on the event loop's
   * engine as on the thread-pool server's sockets (JSSE would run the full handshake); the server serves others.
   */
  @EachTlsEngine
  void clientRenegotiationIsRefused(TlsEngine engine) throws Exception {
    try (NettyThriftServer server = start(tls(engine, serverStore).tlsProtocols(List.of("TLSv1.2")).build())) {
      TSSLTransportFactory.TSSLTransportParameters params = new TSSLTransportFactory.TSSLTransportParameters("TLS",
          null);
      params.setTrustStore(trustStore.toString(), new String(PASSWORD), null, "PKCS12");
      params.setKeyStore(clientStore.toString(), new String(PASSWORD), null, "PKCS12");
      TSocket socket = TSSLTransportFactory.getClientSocket("localhost", server.port(), 10_000, params);
      try (TTransport transport = new TFramedTransport(socket)) {
        EchoService.Client client = new EchoService.Client(new TCompactProtocol(transport));
        assertArrayEquals(new byte[] {7}, toArray(client.echo(ByteBuffer.wrap(new byte[] {7}))));
        TlsRenegotiation.assertRefused(socket, () -> client.echo(ByteBuffer.wrap(new byte[] {8})));
      }
      try (ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, clientStore).build());
          SecuredTransport transport = clients.open("localhost", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
        assertArrayEquals(new byte[] {9}, toArray(client.echo(ByteBuffer.wrap(new byte[] {9}))));
      }
    }
  }

  /**
   * The failure of issue #12: 200 idle connections that never start their handshake took every worker of the
   * thread-pool server. Here they wait on the event loop, a real client is served meanwhile, and the deadline then
   * closes them all.
   */
  @Test
  void twoHundredIdleConnectionsDoNotStopALegitimateClient() throws Exception {
    // A deadline short enough to watch it close the stalled handshakes, long enough for 200 connects on a busy machine;
    // every peer is on 127.0.0.1, so the per-address limits are lifted.
    SecurityConfig config = tls(TlsEngine.JSSE, serverStore).maxConnectionsPerAddress(500)
        .maxUnauthenticatedConnectionsPerAddress(500).handshakeTimeout(Duration.ofSeconds(5)).build();
    List<Socket> idle = new ArrayList<>();
    try (NettyThriftServer server = start(config);
        ClientTransportFactory clients = ClientTransportFactory.create(tls(TlsEngine.JSSE, clientStore).build())) {
      int threadsBefore = Thread.activeCount();
      for (int i = 0; i < 200; i++) {
        idle.add(new Socket("127.0.0.1", server.port()));
      }
      Await.until("server.unauthenticatedConnections() == 200", Duration.ofSeconds(10),
          () -> server.unauthenticatedConnections() == 200);
      // Idle peers hold no thread: the count is what it was before they connected, give or take pool start-up.
      assertTrue(Thread.activeCount() - threadsBefore < 10,
          "threads grew by " + (Thread.activeCount() - threadsBefore));
      try (SecuredTransport transport = clients.open("localhost", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
        assertArrayEquals(new byte[] {7}, toArray(client.echo(ByteBuffer.wrap(new byte[] {7}))));
      }
      Await.until("server.connections() == 0", Duration.ofSeconds(30), () -> server.connections() == 0);
      for (Socket socket : idle) {
        socket.setSoTimeout(5000);
        assertEquals(-1, socket.getInputStream().read(), "the deadline closes a stalled handshake");
      }
    } finally {
      for (Socket socket : idle) {
        socket.close();
      }
    }
  }

  /**
   * At the unauthenticated limit the newcomer is admitted and the oldest connection still in its handshake is closed,
   * so peers that hold handshakes open cannot lock a legitimate client out.
   */
  @Test
  void overTheUnauthenticatedLimitTheOldestHandshakeIsClosed() throws Exception {
    SecurityConfig config = tls(TlsEngine.JSSE, serverStore).maxUnauthenticatedConnections(5).build();
    List<Socket> sockets = new ArrayList<>();
    try (NettyThriftServer server = start(config)) {
      for (int i = 0; i < 5; i++) {
        sockets.add(new Socket("127.0.0.1", server.port()));
        int opened = i + 1;
        // One at a time, so the admission order is the order of the list.
        Await.until("server.unauthenticatedConnections() == opened", Duration.ofSeconds(10),
            () -> server.unauthenticatedConnections() == opened);
      }
      try (Socket sixth = new Socket("127.0.0.1", server.port())) {
        Socket oldest = sockets.get(0);
        oldest.setSoTimeout(5000);
        assertEquals(-1, oldest.getInputStream().read(), "closed before the 5 s read timeout and the 10 s deadline");
        assertEquals(1, server.counters().failures(AuthFailure.OVER_LIMIT));
        assertEquals(5, server.unauthenticatedConnections());
        sixth.setSoTimeout(300);
        assertThrows(SocketTimeoutException.class, () -> sixth.getInputStream().read(),
            "the newcomer is held");
      }
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }
}
