package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A reused client factory resumes its sessions on the non-blocking server, on both engines and both versions, with
 * client certificates: the Conscrypt server once sent no TLS 1.3 session tickets, so TLS 1.3 never resumed on it.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyResumptionTest {
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

  static Stream<Arguments> enginesAndVersions() {
    List<Arguments> all = new ArrayList<>();
    for (TlsEngine engine : List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT)) {
      for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
        all.add(Arguments.of(engine, protocol));
      }
    }
    return all.stream();
  }

  private static SecurityConfig.Builder tls(TlsEngine engine, Path keyStore) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NEED);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("enginesAndVersions")
  void aReusedClientFactoryResumes(TlsEngine engine, String protocol) throws Exception {
    // The server offers both versions and the client pins one, as in the blocking server's resumption test.
    try (NettyThriftServer server = NettyThriftServer.builder(tls(engine, serverStore).build(),
            new EchoService.Processor<>(new EchoHandler())).protocolFactory(new TCompactProtocol.Factory())
            .workerThreads(2).eventLoopThreads(1).shutdownGrace(Duration.ofSeconds(2)).build()
            .start(new InetSocketAddress("127.0.0.1", 0));
        ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, clientStore)
            .tlsProtocols(List.of(protocol)).build())) {
      String first = call(clients, server.port(), false);
      assertFalse(first.contains(" resumed"), "the server saw a full handshake first: " + first);
      for (int i = 0; i < 3; i++) {
        String again = call(clients, server.port(), true);
        assertTrue(again.contains(protocol + " ") && again.contains(" resumed") && again.contains("principal=alice"),
            "the server saw a resumed session and still knows the client: " + again);
      }
    }
  }

  /** One connection with a 1-byte call; returns what the server knows of the client. */
  private static String call(ClientTransportFactory clients, int port, boolean resumed) throws Exception {
    try (SecuredTransport transport = clients.open("localhost", port)) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
      ByteBuffer echoed = client.echo(ByteBuffer.wrap(new byte[] {5}));
      byte[] got = new byte[echoed.remaining()];
      echoed.get(got);
      assertArrayEquals(new byte[] {5}, got);
      PeerIdentity server = transport.peerIdentity();
      assertEquals(resumed, server.tlsSessionResumed(), "client side: " + server);
      assertEquals("localhost", server.principal().orElseThrow());
      return client.whoAmI();
    }
  }
}
