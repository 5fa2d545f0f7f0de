package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslChannelBinding;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
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
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.security.auth.Subject;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real servers (TThreadPoolServer through ServerTransportFactory) with the main log and the audit log captured: bare
 * connects leave the main log quiet, every refusal gives exactly one audit line naming its cause, every success one
 * naming the principal and the protection.
 */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class AuditLogTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int START = 1;
  private static final int OK = 2;
  private static final int BARE_CONNECTS = 1000;
  private static final int IN_FLIGHT = 4;

  private EmbeddedKdc kdc;
  private TestCertificateAuthority ca;
  private Path dir;

  @BeforeEach
  void keep(EmbeddedKdc kdc, TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    this.kdc = kdc;
    this.ca = ca;
    this.dir = dir;
  }

  /** The audit lines captured so far, the part after the logger's name. */
  private static List<String> audit(LogCapture log) {
    String marker = " " + HandshakeAudit.LOGGER_NAME + " - ";
    return log.lines(marker).stream().map(l -> l.substring(l.indexOf(marker) + marker.length()))
        .collect(Collectors.toList());
  }

  /** Lines of every other logger (ours and libthrift's) at WARN or ERROR. */
  private static List<String> mainLogWarnings(LogCapture log) {
    return log.lines("").stream().filter(l -> l.contains("] WARN ") || l.contains("] ERROR "))
        .collect(Collectors.toList());
  }

  private SecurityConfig gssapiServerAllQops() {
    return SaslConfigs.server(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF,
        QualityOfProtection.AUTH_INT, QualityOfProtection.AUTH);
  }

  private SecurityConfig tlsServer(TlsEngine engine, ClientAuth clientAuth) {
    Path keyStore = ca.leaf().addSubjectAlternativeName(SaslConfigs.HOST).issue()
        .writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine).clientAuth(clientAuth)
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
  }

  private SecurityConfig tlsClient(TlsEngine engine) {
    Path keyStore = ca.leaf().commonName("ingest-client").issue()
        .writeKeyStore(dir, "client", KeyStoreFormat.PKCS12, PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
  }

  @Test
  void bareConnectsAreCountedAndAuditedButLeaveTheMainLogQuiet() throws Exception {
    Map<String, SecurityConfig> servers = Map.of("sasl", gssapiServerAllQops(),
        "tls-jsse", tlsServer(TlsEngine.JSSE, ClientAuth.NONE),
        "tls-conscrypt", tlsServer(TlsEngine.CONSCRYPT, ClientAuth.NONE));
    for (Map.Entry<String, SecurityConfig> entry : servers.entrySet()) {
      try (ServerTransportFactory factory = ServerTransportFactory.create(entry.getValue());
          EchoServer server = EchoServer.start(factory)) {
        // Opened after the start, whose configuration warnings (several QOPs without TLS) are not the point here.
        try (LogCapture log = LogCapture.start()) {
          long start = System.nanoTime();
          for (int i = 0; i < BARE_CONNECTS; i++) {
            int connected = i;
            // A few in flight, as a scanner or a health check: a burst beyond the test server's 32 workers gets
            // libthrift's own "ThreadPool is saturated" warning, which is about capacity, not about the peers.
            Await.until("room in the worker pool", WAIT,
                () -> connected - factory.counters().failures() < IN_FLIGHT);
            new Socket(SaslConfigs.HOST, server.port()).close();
          }
          Await.until(BARE_CONNECTS + " refusals counted", WAIT,
              () -> factory.counters().failures(AuthFailure.CLOSED_BEFORE_HANDSHAKE) == BARE_CONNECTS);
          List<String> audit = log.awaitLines(" " + HandshakeAudit.LOGGER_NAME + " - ", BARE_CONNECTS, WAIT);
          long millis = (System.nanoTime() - start) / 1_000_000;
          assertEquals(List.of(), mainLogWarnings(log), entry.getKey());
          assertEquals(BARE_CONNECTS, audit.size(), entry.getKey());
          assertTrue(audit(log).stream().allMatch(l -> l.contains(" outcome=failure ")
              && l.contains(" cause=closed-before-handshake ")), audit.get(0));
          assertEquals(BARE_CONNECTS, factory.counters().failures());
          assertEquals(0, factory.counters().successes());
          System.out.println("AuditLogTest " + entry.getKey() + ": " + BARE_CONNECTS + " bare connects, "
              + mainLogWarnings(log).size() + " main-log WARN/ERROR lines, " + audit.size() + " audit lines, "
              + millis + " ms; first audit line: " + audit(log).get(0));
        }
      }
    }
  }

  @Test
  void eachSuccessGivesOneAuditLineWithPrincipalAndProtection() throws Exception {
    try (LogCapture log = LogCapture.start()) {
      try (ServerTransportFactory factory = ServerTransportFactory.create(gssapiServerAllQops());
          EchoServer server = EchoServer.start(factory);
          ClientTransportFactory gssapi = ClientTransportFactory.create(SaslConfigs.client(kdc, SaslMechanism.GSSAPI,
              QualityOfProtection.AUTH_CONF));
          ClientTransportFactory digest = ClientTransportFactory.create(SaslConfigs.digestClient()
              .qop(QualityOfProtection.AUTH_INT).build())) {
        echo(gssapi.open(SaslConfigs.HOST, server.port()));
        echo(digest.open(SaslConfigs.HOST, server.port()));
        Await.until("two successes", WAIT, () -> factory.counters().successes() == 2);
        assertEquals(Map.of("GSSAPI/auth-conf", 1L, "DIGEST-MD5/auth-int", 1L),
            factory.counters().successesByProtection());
      }
      try (ServerTransportFactory factory = ServerTransportFactory.create(tlsServer(TlsEngine.JSSE, ClientAuth.NEED));
          EchoServer server = EchoServer.start(factory);
          ClientTransportFactory tls = ClientTransportFactory.create(tlsClient(TlsEngine.JSSE))) {
        echo(tls.open(SaslConfigs.HOST, server.port()));
        Await.until("one success", WAIT, () -> factory.counters().successes() == 1);
        assertEquals(Map.of("TLSv1.3", 1L), factory.counters().successesByProtection());
      }
      List<String> lines = audit(log);
      assertEquals(3, lines.size(), String.join("\n", lines));
      assertTrue(lines.get(0).matches("event=auth outcome=success peer=/127\\.0\\.0\\.1:\\d+ mode=sasl"
          + " principal=client@" + kdc.realm().replace(".", "\\.") + " subject=- mechanism=GSSAPI qop=auth-conf"
          + " sasl_cipher=- tls_protocol=- tls_suite=- tls_resumed=- handshake_ms=\\d+"), lines.get(0));
      assertTrue(lines.get(1).matches("event=auth outcome=success peer=/127\\.0\\.0\\.1:\\d+ mode=sasl"
          + " principal=[^ ]+ subject=- mechanism=DIGEST-MD5 qop=auth-int sasl_cipher=- tls_protocol=- tls_suite=-"
          + " tls_resumed=- handshake_ms=\\d+"), lines.get(1));
      assertTrue(lines.get(2).matches("event=auth outcome=success peer=/127\\.0\\.0\\.1:\\d+ mode=tls"
          + " principal=ingest-client subject=\"CN=ingest-client\" mechanism=- qop=- sasl_cipher=-"
          + " tls_protocol=TLSv1\\.3 tls_suite=TLS_AES_\\w+ tls_resumed=false handshake_ms=\\d+"), lines.get(2));
      assertEquals(List.of(), mainLogWarnings(log).stream().filter(l -> !l.contains("ProtectionWarnings"))
          .collect(Collectors.toList()));
    }
  }

  @Test
  void eachFailureCauseGivesOneAuditLineAndAtMostOneWarning() throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory gss = ServerTransportFactory.create(SaslConfigs.server(kdc, SaslMechanism.GSSAPI,
            QualityOfProtection.AUTH_CONF).toBuilder().handshakeTimeout(Duration.ofMillis(700)).build());
        EchoServer gssServer = EchoServer.start(gss);
        ServerTransportFactory tls = ServerTransportFactory.create(tlsServer(TlsEngine.JSSE, ClientAuth.NONE));
        EchoServer tlsServer = EchoServer.start(tls)) {
      int sasl = gssServer.port();
      expect(log, gss, AuthFailure.CLOSED_BEFORE_HANDSHAKE, () -> new Socket(SaslConfigs.HOST, sasl).close());
      expect(log, tls, AuthFailure.CLOSED_BEFORE_HANDSHAKE,
          () -> new Socket(SaslConfigs.HOST, tlsServer.port()).close());
      expect(log, gss, AuthFailure.CLOSED_DURING_HANDSHAKE, () -> {
        try (Socket s = new Socket(SaslConfigs.HOST, sasl)) {
          SaslWire.send(s, START, "DIGEST-MD5".getBytes(StandardCharsets.US_ASCII));
        }
      });
      expect(log, gss, AuthFailure.TIMEOUT, () -> {
        try (Socket s = new Socket(SaslConfigs.HOST, sasl)) {
          s.getOutputStream().write(START);
          awaitClosed(s);
        }
      });
      expect(log, tls, AuthFailure.TLS_ALERT, () -> {
        try (Socket s = new Socket(SaslConfigs.HOST, tlsServer.port())) {
          // A plaintext Thrift frame where a ClientHello belongs.
          s.getOutputStream().write(new byte[] {0, 0, 0, 12, -126, 33, 1, 4, 101, 99, 104, 111, 0, 0, 0, 0});
          awaitClosed(s);
        }
      });
      expect(log, gss, AuthFailure.SASL_BAD, () -> {
        try (Socket s = new Socket(SaslConfigs.HOST, sasl)) {
          SaslWire.send(s, START, "PLAIN".getBytes(StandardCharsets.US_ASCII));
          awaitClosed(s);
        }
      });
      expect(log, gss, AuthFailure.OVER_LIMIT, () -> {
        try (Socket s = new Socket(SaslConfigs.HOST, sasl)) {
          s.getOutputStream().write(new byte[] {START, 0, 0x10, 0, 0});
          awaitClosed(s);
        }
      });
      expect(log, gss, AuthFailure.UNKNOWN_PRINCIPAL, () -> {
        DelegationToken unknown = new DelegationToken("someone-else".getBytes(StandardCharsets.UTF_8),
            "pw".getBytes(StandardCharsets.UTF_8));
        try (ClientTransportFactory client = ClientTransportFactory.create(SaslConfigs.base(SaslMechanism.DIGEST_MD5)
            .delegationToken(unknown).build())) {
          assertThrows(TTransportException.class, () -> client.open(SaslConfigs.HOST, sasl));
        }
      });
      String byPeer = expect(log, gss, AuthFailure.QOP_REFUSED_BY_PEER, () -> closeAfterTheGssapiOffer(sasl));
      assertTrue(byPeer.contains("the client closed the connection right after the server offered [auth-conf]: it"
          + " accepts none of them"), byPeer);
      expect(log, gss, AuthFailure.QOP_REFUSED_BY_PEER, () -> {
        try (ClientTransportFactory client = ClientTransportFactory.create(SaslConfigs.client(kdc,
            SaslMechanism.GSSAPI, QualityOfProtection.AUTH_INT))) {
          assertThrows(TTransportException.class, () -> client.open(SaslConfigs.HOST, sasl));
        }
      });
      try (RewritingRelay relay = RewritingRelay.to(sasl, challenge -> challenge.replace(
          "cipher=\"3des\"", "cipher=\"rc4-40\""), s -> s)) {
        String byServer = expect(log, gss, AuthFailure.QOP_REFUSED_BY_SERVER, () -> assertThrows(
            TTransportException.class, () -> LibthriftPeers.client(null, SaslMechanism.DIGEST_MD5,
                QualityOfProtection.AUTH_CONF, relay.port()).close()));
        assertTrue(byServer.contains("client chose cipher rc4-40 (strength low)"), byServer);
      }
      KerberosIdentity service = SaslConfigs.service(kdc);
      KerberosIdentity caller = SaslConfigs.client(kdc);
      try (ServerTransportFactory bound = ServerTransportFactory.create(tlsServer(TlsEngine.JSSE, ClientAuth.NONE)
              .toBuilder().mode(SecurityMode.SASL_OVER_TLS).saslMechanism(SaslMechanism.GSSAPI)
              .qop(QualityOfProtection.AUTH).kerberosLogin(service.principal(), service.keytab())
              .saslChannelBinding(SaslChannelBinding.REQUIRE).build());
          EchoServer boundServer = EchoServer.start(bound);
          ClientTransportFactory unbound = ClientTransportFactory.create(tlsClient(TlsEngine.JSSE).toBuilder()
              .mode(SecurityMode.SASL_OVER_TLS).saslMechanism(SaslMechanism.GSSAPI).qop(QualityOfProtection.AUTH)
              .kerberosLogin(caller.principal(), caller.keytab()).saslChannelBinding(SaslChannelBinding.OFF)
              .build())) {
        String binding = expect(log, bound, AuthFailure.CHANNEL_BINDING, () -> assertThrows(
            TTransportException.class, () -> unbound.open(SaslConfigs.HOST, boundServer.port())));
        assertTrue(binding.contains("sent no channel binding"), binding);
      }
      try (ServerTransportFactory unified = ServerTransportFactory.create(tlsServer(TlsEngine.JSSE, ClientAuth.NONE)
              .toBuilder().portUnification(true).build());
          EchoServer unifiedServer = EchoServer.start(unified)) {
        unified.plaintextAccepted(false);
        // A plaintext frame (its length, then 5 bytes) on a port switched to TLS only; the bytes arrive before the
        // close, so the server reads the first one.
        String plaintext = expect(log, unified, AuthFailure.PLAINTEXT, () -> {
          try (Socket plain = new Socket(SaslConfigs.HOST, unifiedServer.port())) {
            plain.getOutputStream().write(new byte[] {0, 0, 0, 5, 1, 2, 3, 4, 5});
            plain.getOutputStream().flush();
          }
        });
        assertTrue(plaintext.contains("switched to TLS only (securethrift.server.port.unification): configure the"
            + " client for TLS, or set JMX attribute PlaintextAccepted back to true"), plaintext);
      }
      List<String> warnings = mainLogWarnings(log).stream().filter(l -> !l.contains("ProtectionWarnings"))
          .collect(Collectors.toList());
      assertTrue(warnings.stream().noneMatch(l -> l.contains("] ERROR ") || l.contains("closed-before-handshake")),
          String.join("\n", warnings));
      // Rate-limited per cause: the second qop-refused-by-peer within a minute is counted and audited, not logged.
      assertEquals(AuthFailure.values().length - 1, warnings.size(), String.join("\n", warnings));
      assertTrue(log.text().lines().noneMatch(l -> l.startsWith("\tat ")), "no stack trace in the log");
    }
  }

  /** Runs {@code action} and checks it gave exactly one more audit line, with {@code cause}; returns that line. */
  private static String expect(LogCapture log, ServerTransportFactory factory, AuthFailure cause,
      ThrowingRunnable action) throws Exception {
    long before = factory.counters().failures(cause);
    int lines = audit(log).size();
    action.run();
    Await.until(cause + " counted", WAIT, () -> factory.counters().failures(cause) == before + 1);
    List<String> added = log.awaitLines(" " + HandshakeAudit.LOGGER_NAME + " - ", lines + 1, WAIT)
        .subList(lines, lines + 1);
    String line = audit(log).get(lines);
    assertEquals(1, added.size());
    assertTrue(line.startsWith("event=auth outcome=failure peer=/127.0.0.1:") && line.contains(" cause="
        + cause.token() + " "), cause + ": " + line);
    System.out.println("AuditLogTest " + cause + ": " + line);
    return line;
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  /**
   * What a Cyrus SASL client refusing the offered QOPs does: a real JDK GSSAPI client runs the negotiation up to the
   * server's security layer offer, then closes without a word.
   */
  private void closeAfterTheGssapiOffer(int port) throws Exception {
    Subject subject = KerberosLogin.login(SaslConfigs.client(kdc));
    Subject.doAs(subject, (PrivilegedExceptionAction<Void>) () -> {
      // Mutual authentication, as Cyrus asks for it: the server answers with its AP-REP, then with the offer.
      SaslClient client = LibthriftPeers.gssapiClient(Map.of(Sasl.QOP, "auth", Sasl.SERVER_AUTH, "true"));
      try (Socket s = new Socket(SaslConfigs.HOST, port)) {
        SaslWire.send(s, START, "GSSAPI".getBytes(StandardCharsets.US_ASCII));
        SaslWire.send(s, OK, client.evaluateChallenge(new byte[0]));
        byte[] response = client.evaluateChallenge(payload(s));
        assertEquals(0, response.length, "the context is established after one round trip");
        SaslWire.send(s, OK, response);
        payload(s);
      } finally {
        client.dispose();
      }
      return null;
    });
  }

  /** The payload of the next negotiation message. */
  private static byte[] payload(Socket s) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    int status = in.readUnsignedByte();
    byte[] payload = new byte[in.readInt()];
    in.readFully(payload);
    assertEquals(OK, status, new String(payload, StandardCharsets.UTF_8));
    return payload;
  }

  /** Waits for the server to close, draining what it says first (a BAD reason, an alert). */
  private static void awaitClosed(Socket s) throws IOException {
    s.setSoTimeout((int) WAIT.toMillis());
    InputStream in = s.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      while (in.read(buffer) >= 0) {
        // Drained.
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept the connection open for " + WAIT, e);
    } catch (IOException reset) {
      // A reset ends it too.
    }
  }

  private static void echo(SecuredTransport transport) throws Exception {
    try (SecuredTransport t = transport) {
      EchoServer.assertEchoes(EchoServer.client(t), 1, 5000);
    }
  }
}
