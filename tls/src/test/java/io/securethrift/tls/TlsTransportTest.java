package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both engines on each side (client engine × server engine), TLS 1.3 and 1.2, with and without client certificates:
 * echo messages, identities on both ends, and session resumption on reconnect.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class TlsTransportTest {
  private static Path serverStore;
  private static Path clientStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = TlsTestConfigs.keyStore(ca.leaf().issue(), dir, "server");
    clientStore = TlsTestConfigs.keyStore(ca.leaf().commonName("alice").addSubjectAlternativeName("alice.example")
        .issue(), dir, "client");
    trustStore = TlsTestConfigs.trustStore(ca, dir);
  }

  static Stream<Arguments> combinations() {
    List<Arguments> all = new ArrayList<>();
    for (TlsEngine client : List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT)) {
      for (TlsEngine server : List.of(TlsEngine.JSSE, TlsEngine.CONSCRYPT)) {
        for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
          for (ClientAuth auth : List.of(ClientAuth.NONE, ClientAuth.NEED)) {
            all.add(Arguments.of(client, server, protocol, auth));
          }
        }
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "client {0}, server {1}, {2}, client auth {3}")
  @MethodSource("combinations")
  void echoesAndIdentifiesBothEnds(TlsEngine clientEngine, TlsEngine serverEngine, String protocol, ClientAuth auth)
      throws Exception {
    // The server offers both versions and the client limits itself, the usual way a version is pinned; a Conscrypt
    // server limited to TLS 1.3 alone refuses to resume TLS 1.3 sessions.
    SecurityConfig serverConfig = TlsTestConfigs.tls(serverEngine, serverStore, trustStore).clientAuth(auth).build();
    SecurityConfig clientConfig = TlsTestConfigs.tls(clientEngine, auth == ClientAuth.NEED ? clientStore : null,
        trustStore).tlsProtocols(List.of(protocol)).build();
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(serverConfig);
         ClientTransportFactory clientFactory = ClientTransportFactory.create(clientConfig)) {
      EchoServer server = EchoServer.start(serverFactory);
      try {
        try (SecuredTransport transport = clientFactory.open("localhost", server.port())) {
          var client = EchoServer.client(transport);
          EchoServer.assertEchoes(client, 0, 128, 16 * 1024, 1 << 20);
          PeerIdentity identity = transport.peerIdentity();
          assertEquals(protocol, identity.tlsProtocol().orElseThrow());
          assertTrue(CipherSuites.isAeadWithForwardSecrecy(identity.tlsCipherSuite().orElseThrow()),
              identity.toString());
          assertFalse(identity.tlsSessionResumed(), "first connection is a full handshake");
          assertEquals("localhost", identity.principal().orElseThrow());
          assertEquals("CN=localhost", identity.peerCertificates().get(0).getSubjectX500Principal().getName());
          String seen = client.whoAmI();
          assertTrue(seen.contains("tls /127.0.0.1:") && seen.contains(protocol), seen);
          assertEquals(auth == ClientAuth.NEED, seen.contains("principal=alice "), seen);
        }
        try (SecuredTransport again = clientFactory.open("localhost", server.port())) {
          assertEquals(ByteBuffer.wrap(new byte[] {7}), EchoServer.client(again).echo(ByteBuffer.wrap(new byte[] {7})));
          assertTrue(again.peerIdentity().tlsSessionResumed(), "reconnect resumes: " + again.peerIdentity());
        }
      } finally {
        server.close();
      }
    }
  }
}
