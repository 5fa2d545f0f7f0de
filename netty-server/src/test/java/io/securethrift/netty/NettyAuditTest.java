package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.audit.ServerCountersMXBean;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The non-blocking server writes the same audit as the blocking one, through the same {@link HandshakeAudit}: bare
 * connects are audited and counted but leave the main log quiet, a success names principal and protection, and a
 * connection over an admission limit is audited as {@code over-limit} with the limit's key.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyAuditTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int BARE_CONNECTS = 1000;
  private static final int IN_FLIGHT = 4;
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-alice".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();
  private static final String AUDIT = " " + HandshakeAudit.LOGGER_NAME + " - ";

  private static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static SecurityConfig.Builder digest() {
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.DIGEST_MD5)
        .qop(QualityOfProtection.AUTH_CONF).serverHost("localhost");
  }

  private static SecurityConfig.Builder tls(Path keyStore, Path trustStore) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.JSSE).clientAuth(ClientAuth.NEED)
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
  }

  /** The audit lines captured so far, the part after the logger's name. */
  private static List<String> audit(LogCapture log) {
    return log.lines(AUDIT).stream().map(l -> l.substring(l.indexOf(AUDIT) + AUDIT.length()))
        .collect(Collectors.toList());
  }

  private static List<String> mainLogWarnings(LogCapture log) {
    return log.lines("").stream().filter(l -> l.contains("] WARN ") || l.contains("] ERROR "))
        .collect(Collectors.toList());
  }

  private static void bareConnects(NettyThriftServer server, LogCapture log, String mode) throws Exception {
    for (int i = 0; i < BARE_CONNECTS; i++) {
      int connected = i;
      // A few in flight, as a scanner or a health check; a burst would meet the admission limits instead.
      Await.until("connected - server.counters().failures() < IN_FLIGHT", WAIT,
          () -> connected - server.counters().failures() < IN_FLIGHT);
      new Socket("127.0.0.1", server.port()).close();
    }
    Await.until("server.counters().failures() == BARE_CONNECTS", WAIT,
        () -> server.counters().failures() == BARE_CONNECTS);
    assertEquals(BARE_CONNECTS, server.counters().failures(AuthFailure.CLOSED_BEFORE_HANDSHAKE),
        mode + ": " + server.counters().failuresByCause());
    assertEquals(BARE_CONNECTS, log.awaitLines(AUDIT, BARE_CONNECTS, WAIT).size(), mode);
    assertEquals(List.of(), mainLogWarnings(log), mode);
    assertTrue(audit(log).stream().allMatch(l -> l.contains(" outcome=failure ") && l.contains(" mode=" + mode + " ")
        && l.contains(" cause=closed-before-handshake ")), audit(log).get(0));
    assertEquals(0, server.counters().successes());
  }

  @Test
  void bareConnectsLeaveTheMainLogQuietInSaslAndTlsModes(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    try (NettyThriftServer server = start(digest().delegationTokenSecrets(SECRETS).build());
        LogCapture log = LogCapture.start()) {
      bareConnects(server, log, "sasl");
    }
    Path keyStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    try (NettyThriftServer server = start(tls(keyStore, trustStore).build());
        LogCapture log = LogCapture.start()) {
      bareConnects(server, log, "tls");
    }
  }

  @Test
  void successesAreAuditedWithPrincipalAndProtection(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path clientStore = ca.leaf().commonName("alice").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12,
        PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    try (LogCapture log = LogCapture.start()) {
      try (NettyThriftServer server = start(digest().delegationTokenSecrets(SECRETS).build());
          ClientTransportFactory clients = ClientTransportFactory.create(digest().delegationToken(TOKEN).build());
          SecuredTransport transport = clients.open("localhost", server.port())) {
        new EchoService.Client(transport.protocol(new TCompactProtocol.Factory())).whoAmI();
        Await.until("server.counters().successes() == 1", WAIT, () -> server.counters().successes() == 1);
        assertEquals(Map.of("DIGEST-MD5/auth-conf", 1L), server.counters().successesByProtection());
      }
      try (NettyThriftServer server = start(tls(serverStore, trustStore).build());
          ClientTransportFactory clients = ClientTransportFactory.create(tls(clientStore, trustStore).build());
          SecuredTransport transport = clients.open("localhost", server.port())) {
        new EchoService.Client(transport.protocol(new TCompactProtocol.Factory())).whoAmI();
        Await.until("server.counters().successes() == 1", WAIT, () -> server.counters().successes() == 1);
        assertEquals(Map.of("TLSv1.3", 1L), server.counters().successesByProtection());
      }
      List<String> lines = audit(log);
      assertEquals(2, lines.size(), String.join("\n", lines));
      assertTrue(lines.get(0).matches("event=auth outcome=success peer=/127\\.0\\.0\\.1:\\d+ mode=sasl principal=\\S+"
          + " subject=- mechanism=DIGEST-MD5 qop=auth-conf sasl_cipher=\\S+ tls_protocol=- tls_suite=- tls_resumed=-"
          + " handshake_ms=\\d+"), lines.get(0));
      assertTrue(lines.get(1).matches("event=auth outcome=success peer=/127\\.0\\.0\\.1:\\d+ mode=tls principal=alice"
          + " subject=\"CN=alice\" mechanism=- qop=- sasl_cipher=- tls_protocol=TLSv1\\.3 tls_suite=TLS_AES_\\w+"
          + " tls_resumed=false handshake_ms=\\d+"), lines.get(1));
      assertEquals(List.of(), mainLogWarnings(log));
    }
  }

  /**
   * A SASL-over-TLS client below the server's QOP sends BAD and leaves at once, often while the server's step that
   * reads the BAD still runs: each such connection is one audit line, of the SASL stage, with the peer's reason.
   */
  @Test
  void aSaslOverTlsPeerThatRefusesTheQopAndLeavesIsOneSaslFailure(TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    Path serverStore = ca.leaf().addSubjectAlternativeName("localhost").issue()
        .writeKeyStore(dir, "qop-server", KeyStoreFormat.PKCS12, PASSWORD);
    Path clientStore = ca.leaf().commonName("alice").issue().writeKeyStore(dir, "qop-client", KeyStoreFormat.PKCS12,
        PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    SecurityConfig server = tls(serverStore, trustStore).mode(SecurityMode.SASL_OVER_TLS)
        .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF).serverHost("localhost")
        .delegationTokenSecrets(SECRETS).build();
    SecurityConfig client = tls(clientStore, trustStore).mode(SecurityMode.SASL_OVER_TLS)
        .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH).serverHost("localhost")
        .delegationToken(TOKEN).build();
    int attempts = 5;
    try (LogCapture log = LogCapture.start();
        NettyThriftServer netty = start(server);
        ClientTransportFactory clients = ClientTransportFactory.create(client)) {
      for (int i = 0; i < attempts; i++) {
        assertThrows(TTransportException.class, () -> clients.open("localhost", netty.port()).close());
      }
      Await.until(attempts + " refusals by the peer", WAIT,
          () -> netty.counters().failures(AuthFailure.QOP_REFUSED_BY_PEER) == attempts);
      assertEquals(attempts, netty.counters().failures(), netty.counters().toString());
      List<String> lines = audit(log);
      assertEquals(attempts, lines.size(), String.join("\n", lines));
      assertTrue(lines.stream().allMatch(l -> l.contains(" mode=sasl-over-tls stage=sasl cause=qop-refused-by-peer ")),
          String.join("\n", lines));
    }
  }

  @Test
  void countersAreReadableThroughJmxWhileTheServerListens() throws Exception {
    MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
    ObjectName name;
    try (NettyThriftServer server = start(digest().delegationTokenSecrets(SECRETS).maxConnectionsPerAddress(1)
        .build());
        Socket held = new Socket("127.0.0.1", server.port())) {
      name = new ObjectName("io.securethrift:type=Server,port=" + server.port());
      ServerCountersMXBean counters = JMX.newMXBeanProxy(mbeans, name, ServerCountersMXBean.class);
      Await.until("counters.getOpenConnections() == 1", WAIT, () -> counters.getOpenConnections() == 1);
      new Socket("127.0.0.1", server.port()).close();
      Await.until("counters.getHandshakeFailures() == 1", WAIT, () -> counters.getHandshakeFailures() == 1);
      assertEquals(1L, counters.getHandshakeFailuresByCause().get("over-limit"));
      assertEquals(AuthFailure.values().length, counters.getHandshakeFailuresByCause().size());
      assertEquals(1, counters.getUnauthenticatedConnections(), "the held socket never started its handshake");
      assertEquals(0L, counters.getHandshakeSuccesses());
      assertEquals(Map.of(), counters.getHandshakeSuccessesByProtection());
    }
    assertFalse(mbeans.isRegistered(name), "unregistered when the server shut down");
  }

  @Test
  void aConnectionOverALimitIsAuditedAsOverLimitWithOneWarning() throws Exception {
    try (NettyThriftServer server = start(digest().delegationTokenSecrets(SECRETS).maxConnectionsPerAddress(1)
        .build());
        LogCapture log = LogCapture.start();
        Socket held = new Socket("127.0.0.1", server.port())) {
      Await.until("server.connections() == 1", WAIT, () -> server.connections() == 1);
      for (int i = 0; i < 3; i++) {
        new Socket("127.0.0.1", server.port()).close();
      }
      Await.until("server.counters().failures(AuthFailure.OVER_LIMIT) == 3", WAIT,
          () -> server.counters().failures(AuthFailure.OVER_LIMIT) == 3);
      List<String> lines = log.awaitLines(AUDIT, 3, WAIT);
      assertTrue(audit(log).stream().allMatch(l -> l.contains(" cause=over-limit ")
          && l.contains("securethrift.server.max.connections.per.address reached")), String.join("\n", lines));
      List<String> warnings = mainLogWarnings(log);
      assertEquals(1, warnings.size(), String.join("\n", warnings));
      assertTrue(warnings.get(0).contains("[over-limit]: securethrift.server.max.connections.per.address reached"),
          warnings.get(0));
    }
  }
}
