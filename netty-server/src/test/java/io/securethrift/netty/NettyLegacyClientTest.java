package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.LegacyThriftPeer;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #12 with Accumulo 1.7's client library: libthrift 0.9.1 in a JVM of its own ({@link LegacyThriftPeer}) makes
 * real EchoService calls (echo of 1 B and 200 KB, whoAmI, a declared exception) to the non-blocking server, over the
 * transports Accumulo 1.7 builds: TFramedTransport on a plain socket, TFramedTransport on TSSLTransportFactory's
 * TLSv1.2 socket with a client certificate, and TSaslClientTransport with GSSAPI at every QOP.
 */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class NettyLegacyClientTest {
  private static final String PASSWORD = "changeit";
  private static final Duration EXIT = Duration.ofSeconds(30);
  private static Path serverStore;
  private static Path clientStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    char[] password = PASSWORD.toCharArray();
    serverStore = ca.leaf().addSubjectAlternativeName("localhost").issue()
        .writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, password);
    clientStore = ca.leaf().commonName("alice").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12, password);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, password);
  }

  private static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static SecurityConfig mutualTls(TlsEngine engine) {
    Secret password = Secret.of(PASSWORD.toCharArray());
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .keyStore(serverStore, StoreType.PKCS12, password).trustStore(trustStore, StoreType.PKCS12, password)
        .clientAuth(ClientAuth.NEED).build();
  }

  /** The peer's TLS client: with alice's certificate, or none for {@code "-"}. */
  private static List<String> tlsCall(NettyThriftServer server, String keyStore) {
    return List.of("call", "tls", String.valueOf(server.port()), trustStore.toString(), keyStore, PASSWORD);
  }

  /**
   * Reads what the peer's call mode prints for one connection, {@code WHO text} then {@code OK what}, and returns the
   * text: the server-side PeerIdentity of the connection.
   */
  private static String served(LegacyThriftPeer peer, String what) throws InterruptedException {
    String who = peer.awaitLine("WHO ").substring(4);
    assertEquals("OK " + what, peer.awaitLine("OK "), "echoes and the declared failure on " + who);
    return who;
  }

  @Test
  void framedPlainCalls() throws Exception {
    try (NettyThriftServer server = start(SecurityConfig.builder().mode(SecurityMode.NONE).build());
        LegacyThriftPeer peer = LegacyThriftPeer.start(List.of("call", "framed", String.valueOf(server.port())))) {
      String who = served(peer, "framed");
      assertTrue(who.startsWith("PeerIdentity[none /127.0.0.1:") && !who.contains("principal="), who);
      assertEquals(0, peer.awaitExit(EXIT), peer.output());
    }
  }

  @EachTlsEngine
  void mutualTlsCallsCarryTheClientCertificate(TlsEngine engine) throws Exception {
    try (NettyThriftServer server = start(mutualTls(engine));
        LegacyThriftPeer peer = LegacyThriftPeer.start(tlsCall(server, clientStore.toString()))) {
      String who = served(peer, "tls");
      assertTrue(who.startsWith("PeerIdentity[tls ") && who.contains(" principal=alice TLSv1.2 "), who);
      assertEquals(0, peer.awaitExit(EXIT), peer.output());
      assertEquals(1, server.counters().successes());
    }
  }

  /**
   * A 0.9.1 TLS client without a certificate fails its handshake on a server that needs one, and the server serves
   * the next legacy client, which has one.
   */
  @Test
  void aClientWithoutCertificateIsRefusedAndTheNextIsServed() throws Exception {
    try (NettyThriftServer server = start(mutualTls(TlsEngine.JSSE))) {
      try (LegacyThriftPeer refused = LegacyThriftPeer.start(tlsCall(server, "-"))) {
        String failure = refused.awaitLine("FAILED ");
        // The peer completes the handshake before its first call: this failure is the handshake's.
        assertTrue(failure.startsWith("FAILED javax.net.ssl.SSLHandshakeException: TLS handshake with localhost:"),
            refused.output());
        assertEquals(1, refused.awaitExit(EXIT), refused.output());
      }
      Await.until("the server counts the refused handshake", Duration.ofSeconds(10),
          () -> server.counters().failures(AuthFailure.TLS_ALERT) == 1);
      try (LegacyThriftPeer next = LegacyThriftPeer.start(tlsCall(server, clientStore.toString()))) {
        assertTrue(served(next, "tls").contains(" principal=alice TLSv1.2 "), next.output());
        assertEquals(0, next.awaitExit(EXIT), next.output());
      }
      assertEquals(1, server.counters().successes());
      assertEquals(1, server.counters().failures());
    }
  }

  @Test
  void saslCallsAtEveryQop(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
    KerberosIdentity client = kdc.principal("client");
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI)
        .qop(QualityOfProtection.values()).kerberosLogin(service.principal(), service.keytab()).build();
    List<String> args = new ArrayList<>(List.of("call", "sasl", "", client.principal(), client.keytab().toString()));
    for (QualityOfProtection qop : QualityOfProtection.values()) {
      args.add(qop.token());
    }
    try (NettyThriftServer server = start(config)) {
      args.set(2, String.valueOf(server.port()));
      try (LegacyThriftPeer peer = LegacyThriftPeer.start(kdc.krb5Conf(), args)) {
        for (QualityOfProtection qop : QualityOfProtection.values()) {
          String who = served(peer, qop.token());
          // The QOP token ends the word: "auth" must not match auth-int.
          assertTrue(who.startsWith("PeerIdentity[sasl ") && Pattern.compile(" principal=client@"
              + Pattern.quote(kdc.realm()) + " GSSAPI " + qop.token() + "[/ \\]]").matcher(who).find(), who);
        }
        assertEquals(0, peer.awaitExit(EXIT), peer.output());
      }
      assertEquals(QualityOfProtection.values().length, server.counters().successes());
    }
  }
}
