package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslChannelBinding;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.KerberosLogin;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Channel binding of Kerberos to TLS ({@code securethrift.sasl.channel.binding}) on both server models and both TLS
 * engines, with a real KDC, certificates from the test CA and real sockets: bound peers connect, a man in the middle
 * holding another certificate the client trusts cannot relay a client's Kerberos authentication, and peers that do
 * not bind (an older securethrift, libthrift's own client) connect unless the server requires binding.
 */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class ChannelBindingTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final String HOST = "localhost";
  private static final int WRAP_HEADER = 16;

  /** securethrift's two servers. */
  enum ServerModel { THREAD_POOL, NETTY }

  /** A running server of either model. */
  private interface Running extends AutoCloseable {
    int port();

    AuthCounters counters();
  }

  private EmbeddedKdc kdc;
  private TestCertificateAuthority ca;
  private Path dir;
  private Path serverStore;
  private Path trustStore;

  @BeforeEach
  void certificates(EmbeddedKdc kdc, TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    this.kdc = kdc;
    this.ca = ca;
    this.dir = dir;
    serverStore = ca.leaf().addSubjectAlternativeName(HOST).issue().writeKeyStore(dir, "server",
        KeyStoreFormat.PKCS12, PASSWORD);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  private SecurityConfig.Builder base(TlsEngine engine, SaslChannelBinding binding) {
    return SecurityConfig.builder().mode(SecurityMode.SASL_OVER_TLS).saslMechanism(SaslMechanism.GSSAPI)
        .qop(QualityOfProtection.AUTH).tlsEngine(engine).saslChannelBinding(binding)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).handshakeTimeout(Duration.ofSeconds(20));
  }

  private SecurityConfig server(TlsEngine engine, SaslChannelBinding binding) {
    KerberosIdentity service = kdc.servicePrincipal("accumulo", HOST);
    return base(engine, binding).kerberosLogin(service.principal(), service.keytab())
        .keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
  }

  private SecurityConfig client(TlsEngine engine, SaslChannelBinding binding) {
    KerberosIdentity client = kdc.principal("client");
    return base(engine, binding).kerberosLogin(client.principal(), client.keytab()).build();
  }

  private static Running start(ServerModel model, SecurityConfig config) throws Exception {
    if (model == ServerModel.NETTY) {
      NettyThriftServer netty = NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
          .protocolFactory(new TCompactProtocol.Factory()).workerThreads(2).eventLoopThreads(1)
          .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
      return running(netty::port, netty::counters, netty::close);
    }
    ServerTransportFactory factory = ServerTransportFactory.create(config);
    EchoServer echo = EchoServer.start(factory);
    return running(echo::port, factory::counters, () -> {
      echo.close();
      factory.close();
    });
  }

  private static Running running(IntSupplier port, Supplier<AuthCounters> counters, AutoCloseable close) {
    return new Running() {
      @Override
      public int port() {
        return port.getAsInt();
      }

      @Override
      public AuthCounters counters() {
        return counters.get();
      }

      @Override
      public void close() throws Exception {
        close.close();
      }
    };
  }

  /** Opens a connection as the client, calls the service, and checks the server saw the client's principal. */
  private void assertServes(SecurityConfig client, int port) throws Exception {
    try (ClientTransportFactory clients = ClientTransportFactory.create(client);
        SecuredTransport transport = clients.open(HOST, port)) {
      EchoService.Client service = EchoServer.client(transport);
      EchoServer.assertEchoes(service, 10, 70_000);
      String who = service.whoAmI();
      assertTrue(who.contains("principal=client@" + kdc.realm() + " GSSAPI auth"), who);
    }
  }

  /** The client's failure to open, which the server refused for its channel binding; the audit names the cause. */
  private static void assertRefusedForBinding(Running server, LogCapture log, ThrowingOpen open) throws Exception {
    Exception e = assertThrows(Exception.class, open::run);
    assertTrue(String.valueOf(e.getMessage()).contains("channel binding") || e.getCause() != null
        && String.valueOf(e.getCause().getMessage()).contains("channel binding"), e.toString());
    Await.until("a channel-binding refusal", Duration.ofSeconds(20),
        () -> server.counters().failures(AuthFailure.CHANNEL_BINDING) == 1);
    assertEquals(0, server.counters().successes(), server.counters().toString());
    log.awaitLines("cause=channel-binding", 1, Duration.ofSeconds(20));
  }

  /** An attempt to connect. */
  @FunctionalInterface
  private interface ThrowingOpen {
    void run() throws Exception;
  }

  static Stream<Arguments> modelsAndEngines() {
    Stream.Builder<Arguments> all = Stream.builder();
    for (ServerModel model : ServerModel.values()) {
      for (TlsEngine server : new TlsEngine[] {TlsEngine.JSSE, TlsEngine.CONSCRYPT}) {
        for (TlsEngine client : new TlsEngine[] {TlsEngine.JSSE, TlsEngine.CONSCRYPT}) {
          all.add(Arguments.of(model, server, client));
        }
      }
    }
    return all.build();
  }

  /**
   * Both sides require binding, so the connection succeeds only if the client bound and the server checked: the
   * client and server engines compute the same binding whichever pair they are.
   */
  @ParameterizedTest
  @MethodSource("modelsAndEngines")
  void boundPeersConnect(ServerModel model, TlsEngine serverEngine, TlsEngine clientEngine) throws Exception {
    try (Running server = start(model, server(serverEngine, SaslChannelBinding.REQUIRE))) {
      assertServes(client(clientEngine, SaslChannelBinding.REQUIRE), server.port());
      assertEquals(0, server.counters().failures(), server.counters().toString());
    }
  }

  /**
   * A resumed TLS session still gives both ends the server's certificate, so binding holds on it: otherwise a relay
   * could resume a session of its own with the server to make the server offer no binding. The client presents a
   * certificate, so that the server can tell a resumed session ({@link io.securethrift.core.identity.PeerIdentity}).
   */
  @ParameterizedTest
  @MethodSource("modelsAndEngines")
  void boundPeersConnectOnResumedSessions(ServerModel model, TlsEngine serverEngine, TlsEngine clientEngine)
      throws Exception {
    Path clientStore = ca.leaf().commonName("alice").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12,
        PASSWORD);
    try (Running server = start(model, server(serverEngine, SaslChannelBinding.REQUIRE).toBuilder()
            .clientAuth(ClientAuth.NEED).build());
        ClientTransportFactory clients = ClientTransportFactory.create(client(clientEngine,
            SaslChannelBinding.REQUIRE).toBuilder().keyStore(clientStore, StoreType.PKCS12, Secret.of(PASSWORD))
            .build())) {
      for (boolean resumed : new boolean[] {false, true}) {
        try (SecuredTransport transport = clients.open(HOST, server.port())) {
          String who = EchoServer.client(transport).whoAmI();
          assertEquals(resumed, who.contains(" resumed"), who);
        }
      }
      assertEquals(0, server.counters().failures(), server.counters().toString());
    }
  }

  /** At auth-conf with AES-GCM the binding travels in the encrypted choice, whose bytes the AES-GCM keys cover. */
  @Test
  void boundPeersAgreeAesGcmKeys() throws Exception {
    try (Running server = start(ServerModel.THREAD_POOL, server(TlsEngine.JSSE, SaslChannelBinding.REQUIRE)
        .toBuilder().qop(QualityOfProtection.AUTH_CONF).saslPrivacy(SaslPrivacy.AES_GCM).build())) {
      try (ClientTransportFactory clients = ClientTransportFactory.create(client(TlsEngine.JSSE,
          SaslChannelBinding.REQUIRE).toBuilder().qop(QualityOfProtection.AUTH_CONF)
          .saslPrivacy(SaslPrivacy.AES_GCM).build());
          SecuredTransport transport = clients.open(HOST, server.port())) {
        assertEquals(SaslPrivacy.AES_GCM, transport.peerIdentity().privacy().orElseThrow());
        EchoServer.assertEchoes(EchoServer.client(transport), 10, 70_000);
      }
    }
  }

  /**
   * The relay ends the client's TLS with another certificate from the CA the client trusts and forwards the SASL
   * bytes into its own TLS connection to the server: at the default setting on both sides, the server refuses.
   */
  @ParameterizedTest
  @MethodSource("modelsAndEngines")
  void relayedAuthenticationIsRefused(ServerModel model, TlsEngine serverEngine, TlsEngine clientEngine)
      throws Exception {
    SecurityConfig defaults = server(serverEngine, SaslChannelBinding.PREFER);
    assertEquals(SaslChannelBinding.PREFER, SecurityConfig.builder().build().sasl().channelBinding());
    try (LogCapture log = LogCapture.start();
        Running server = start(model, defaults);
        TlsRelay relay = relay(server.port());
        ClientTransportFactory clients = ClientTransportFactory.create(client(clientEngine,
            SaslChannelBinding.PREFER))) {
      assertRefusedForBinding(server, log, () -> clients.open(HOST, relay.port()).close());
    }
  }

  /** Which of the two security layer messages a relay strips the binding from. */
  enum Stripped { OFFER, CHOICE }

  /**
   * The relay also strips the binding: the offer's bit, so that the client would not bind, or the choice's, so that
   * the server would see an unbound client, which it serves by default. The Kerberos context wraps both messages, so
   * either change fails its integrity check and the connection is refused.
   */
  @ParameterizedTest
  @EnumSource(Stripped.class)
  void strippingTheBindingFailsTheKerberosIntegrityCheck(Stripped stripped) throws Exception {
    AtomicBoolean changed = new AtomicBoolean();
    UnaryOperator<byte[]> strip = clearBindingBit(changed);
    try (Running server = start(ServerModel.THREAD_POOL, server(TlsEngine.JSSE, SaslChannelBinding.PREFER));
        TlsRelay relay = new TlsRelay(context(ca.leaf().addSubjectAlternativeName(HOST).issue()), context(null),
            server.port(), stripped == Stripped.OFFER ? strip : UnaryOperator.identity(),
            stripped == Stripped.CHOICE ? strip : UnaryOperator.identity());
        ClientTransportFactory clients = ClientTransportFactory.create(client(TlsEngine.JSSE,
            SaslChannelBinding.PREFER))) {
      TTransportException e = assertThrows(TTransportException.class, () -> clients.open(HOST, relay.port()));
      assertTrue(changed.get(), "the relay found the " + stripped + " and cleared its binding bit");
      String whose = stripped == Stripped.OFFER ? "the server's security layer offer" : "the client's security"
          + " layer choice";
      assertTrue(e.getMessage().contains(whose + " failed its GSS check"), e.getMessage());
      Await.until("the server's refusal", Duration.ofSeconds(20), () -> server.counters().failures() == 1);
      assertEquals(0, server.counters().successes(), server.counters().toString());
    }
  }

  /**
   * Clears the binding bit of a wrap token (RFC 4121 section 4.2.6.2: a 16-byte header, then at {@code auth} the
   * plain text, whose first byte is the layer byte: none and binding, 0x21), noting that it did.
   */
  private static UnaryOperator<byte[]> clearBindingBit(AtomicBoolean changed) {
    return payload -> {
      if (payload.length <= WRAP_HEADER || payload[0] != 0x05 || payload[1] != 0x04 || payload[WRAP_HEADER] != 0x21) {
        return payload;
      }
      byte[] stripped = payload.clone();
      stripped[WRAP_HEADER] = 0x01;
      changed.set(true);
      return stripped;
    };
  }

  /** The same relay succeeds when neither side binds: what the binding, and nothing else, stops above. */
  @ParameterizedTest
  @EnumSource(ServerModel.class)
  void relayedAuthenticationSucceedsWithoutBinding(ServerModel model) throws Exception {
    try (Running server = start(model, server(TlsEngine.JSSE, SaslChannelBinding.OFF));
        TlsRelay relay = relay(server.port())) {
      assertServes(client(TlsEngine.JSSE, SaslChannelBinding.OFF), relay.port());
    }
  }

  /** A client that does not bind (on the wire, a securethrift from before binding) is served by default. */
  @ParameterizedTest
  @EnumSource(ServerModel.class)
  void unboundClientIsServedByDefault(ServerModel model) throws Exception {
    try (Running server = start(model, server(TlsEngine.JSSE, SaslChannelBinding.PREFER))) {
      assertServes(client(TlsEngine.JSSE, SaslChannelBinding.OFF), server.port());
    }
  }

  @ParameterizedTest
  @EnumSource(ServerModel.class)
  void unboundClientIsRefusedWhereRequired(ServerModel model) throws Exception {
    try (LogCapture log = LogCapture.start();
        Running server = start(model, server(TlsEngine.JSSE, SaslChannelBinding.REQUIRE));
        ClientTransportFactory clients = ClientTransportFactory.create(client(TlsEngine.JSSE,
            SaslChannelBinding.OFF))) {
      assertRefusedForBinding(server, log, () -> clients.open(HOST, server.port()).close());
      assertTrue(log.text().contains("did not bind"), log.text());
    }
  }

  /** A client that requires binding refuses a server that does not check it, which could be a relay's target. */
  @Test
  void requiringClientRefusesServerThatDoesNotCheck() throws Exception {
    try (Running server = start(ServerModel.THREAD_POOL, server(TlsEngine.JSSE, SaslChannelBinding.OFF));
        ClientTransportFactory clients = ClientTransportFactory.create(client(TlsEngine.JSSE,
            SaslChannelBinding.REQUIRE))) {
      TTransportException e = assertThrows(TTransportException.class, () -> clients.open(HOST, server.port()));
      assertTrue(e.getMessage().contains("does not check channel binding"), e.getMessage());
    }
  }

  /** libthrift's own client over TLS, with the JDK's GSSAPI: served by default, refused where binding is required. */
  @UsesJdkGssapi
  @ParameterizedTest
  @EnumSource(ServerModel.class)
  void libthriftClientOverTls(ServerModel model) throws Exception {
    try (Running server = start(model, server(TlsEngine.JSSE, SaslChannelBinding.PREFER))) {
      TSaslClientTransport transport = libthriftClient(server.port());
      try {
        EchoService.Client service = new EchoService.Client(new TCompactProtocol(transport));
        EchoServer.assertEchoes(service, 10, 70_000);
        assertTrue(service.whoAmI().contains("principal=client@" + kdc.realm()));
      } finally {
        transport.close();
      }
    }
    try (LogCapture log = LogCapture.start();
        Running server = start(model, server(TlsEngine.JSSE, SaslChannelBinding.REQUIRE))) {
      assertRefusedForBinding(server, log, () -> libthriftClient(server.port()).close());
    }
  }

  /** An open libthrift GSSAPI client over a TLS socket that trusts the test CA and verifies the host name. */
  private TSaslClientTransport libthriftClient(int port) throws Exception {
    SSLSocket tls = (SSLSocket) context(null).getSocketFactory().createSocket(HOST, port);
    SSLParameters parameters = tls.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    tls.setSSLParameters(parameters);
    tls.startHandshake();
    TSaslClientTransport transport = new TSaslClientTransport("GSSAPI", null, "accumulo", HOST,
        Map.of(Sasl.QOP, QualityOfProtection.AUTH.token()), null, new TSocket(tls));
    Subject subject = KerberosLogin.login(kdc.principal("client"));
    try {
      Subject.doAs(subject, (PrivilegedExceptionAction<Void>) () -> {
        transport.open();
        return null;
      });
    } catch (PrivilegedActionException e) {
      transport.close();
      throw e.getException();
    }
    return transport;
  }

  /** A relay to {@code serverPort} showing clients another certificate for the same host, from the same CA. */
  private TlsRelay relay(int serverPort) throws Exception {
    IssuedCertificate attacker = ca.leaf().addSubjectAlternativeName(HOST).issue();
    return new TlsRelay(context(attacker), context(null), serverPort);
  }

  /** A JSSE context trusting the test CA, presenting {@code certificate} when not null. */
  private SSLContext context(IssuedCertificate certificate) throws Exception {
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(ca.trustStore(KeyStoreFormat.PKCS12));
    KeyManagerFactory keys = null;
    if (certificate != null) {
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(certificate.toKeyStore(KeyStoreFormat.PKCS12, "relay", PASSWORD), PASSWORD);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
    return context;
  }
}
