package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.KerberosLogin;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** GSSAPI against a real KDC on the non-blocking server: this project's clients, libthrift's, and idle peers. */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class NettyKerberosTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  private static SecurityConfig.Builder base(QualityOfProtection qop) {
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI).qop(qop)
        .maxFrameSize(4L << 20);
  }

  private static SecurityConfig server(EmbeddedKdc kdc, QualityOfProtection qop) {
    KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
    return base(qop).kerberosLogin(service.principal(), service.keytab()).maxConnectionsPerAddress(500).build();
  }

  private static SecurityConfig client(EmbeddedKdc kdc, QualityOfProtection qop) {
    KerberosIdentity client = kdc.principal("client");
    return base(qop).kerberosLogin(client.principal(), client.keytab()).build();
  }

  private static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static void roundTrip(EchoService.Client client) throws Exception {
    byte[] payload = new byte[500_000];
    new Random(3).nextBytes(payload);
    ByteBuffer echoed = client.echo(ByteBuffer.wrap(payload));
    byte[] got = new byte[echoed.remaining()];
    echoed.get(got);
    assertArrayEquals(payload, got);
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void thisProjectsClientAtEveryLevel(QualityOfProtection qop, EmbeddedKdc kdc) throws Exception {
    try (NettyThriftServer server = start(server(kdc, qop));
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, qop));
        SecuredTransport transport = clients.open("localhost", server.port())) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
      roundTrip(client);
      String who = client.whoAmI();
      assertTrue(who.contains("principal=client@" + kdc.realm() + " GSSAPI " + qop), who);
    }
  }

  @UsesJdkGssapi
  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void libthriftClientAtEveryLevel(QualityOfProtection qop, EmbeddedKdc kdc) throws Exception {
    try (NettyThriftServer server = start(server(kdc, qop))) {
      Subject subject = KerberosLogin.login(kdc.principal("client"));
      TSaslClientTransport transport = new TSaslClientTransport("GSSAPI", null, "accumulo", "localhost",
          Map.of(Sasl.QOP, qop.token()), null, new TSocket("localhost", server.port()));
      Subject.doAs(subject, (PrivilegedExceptionAction<Void>) () -> {
        transport.open();
        return null;
      });
      try {
        EchoService.Client client = new EchoService.Client(new TCompactProtocol(transport));
        roundTrip(client);
        assertTrue(client.whoAmI().contains("principal=client@" + kdc.realm()));
      } finally {
        transport.close();
      }
    }
  }

  /**
   * A libthrift client at {@code auth} facing a server that requires privacy sends BAD and closes at once, often before
   * the server's step that reads the BAD has ended: the connection is one failure, with the peer's reason.
   */
  @UsesJdkGssapi
  @Test
  void clientBelowTheServersQopIsOneFailureWithItsReason(EmbeddedKdc kdc) throws Exception {
    try (NettyThriftServer server = start(server(kdc, QualityOfProtection.AUTH_CONF))) {
      Subject subject = KerberosLogin.login(kdc.principal("client"));
      for (int attempt = 1; attempt <= 5; attempt++) {
        TSaslClientTransport transport = new TSaslClientTransport("GSSAPI", null, "accumulo", "localhost",
            Map.of(Sasl.QOP, QualityOfProtection.AUTH.token()), null, new TSocket("localhost", server.port()));
        PrivilegedActionException e = assertThrows(PrivilegedActionException.class,
            () -> Subject.doAs(subject, (PrivilegedExceptionAction<Void>) () -> {
              transport.open();
              return null;
            }));
        assertTrue(e.getException() instanceof TTransportException
            && e.getException().getMessage().contains("No common protection layer"), e.getException().toString());
        int expected = attempt;
        Await.until(expected + " refusals by the peer", Duration.ofSeconds(10),
            () -> server.counters().failures(AuthFailure.QOP_REFUSED_BY_PEER) == expected);
        assertEquals(expected, server.counters().failures(), server.counters().toString());
      }
      Await.until("server.connections() == 0", Duration.ofSeconds(10), () -> server.connections() == 0);
    }
  }

  @Test
  void saslOverMutualTls(EmbeddedKdc kdc, TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path keyStore = ca.leaf().addSubjectAlternativeName("localhost").issue()
        .writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path clientStore = ca.leaf().commonName("alice").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12,
        PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    SecurityConfig server = server(kdc, QualityOfProtection.AUTH).toBuilder().mode(SecurityMode.SASL_OVER_TLS)
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .clientAuth(io.securethrift.core.ClientAuth.NEED).build();
    SecurityConfig client = client(kdc, QualityOfProtection.AUTH).toBuilder().mode(SecurityMode.SASL_OVER_TLS)
        .keyStore(clientStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
    try (NettyThriftServer netty = start(server);
        ClientTransportFactory clients = ClientTransportFactory.create(client);
        SecuredTransport transport = clients.open("localhost", netty.port())) {
      EchoService.Client service = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
      roundTrip(service);
      String who = service.whoAmI();
      assertTrue(who.startsWith("PeerIdentity[sasl-over-tls ") && who.contains("principal=client@" + kdc.realm()
          + " GSSAPI auth TLSv1.3"), who);
    }
  }

  /** Issue #12 in sasl mode: 200 silent peers, then a real Kerberos client is served at once. */
  @Test
  void twoHundredIdleConnectionsDoNotStopAKerberosClient(EmbeddedKdc kdc) throws Exception {
    QualityOfProtection qop = QualityOfProtection.AUTH_CONF;
    List<Socket> idle = new ArrayList<>();
    // A deadline short enough to watch it close the silent peers, long enough for 200 connects on a busy machine;
    // every peer is on 127.0.0.1, so its handshake limit is lifted.
    SecurityConfig config = server(kdc, qop).toBuilder().handshakeTimeout(Duration.ofSeconds(5))
        .maxUnauthenticatedConnectionsPerAddress(500).build();
    try (NettyThriftServer server = start(config);
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc, qop))) {
      for (int i = 0; i < 200; i++) {
        idle.add(new Socket("127.0.0.1", server.port()));
      }
      Await.until("server.unauthenticatedConnections() == 200", Duration.ofSeconds(10),
          () -> server.unauthenticatedConnections() == 200);
      try (SecuredTransport transport = clients.open("localhost", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
        roundTrip(client);
      }
      Await.until("server.connections() == 0", Duration.ofSeconds(30), () -> server.connections() == 0);
    } finally {
      for (Socket socket : idle) {
        socket.close();
      }
    }
  }
}
