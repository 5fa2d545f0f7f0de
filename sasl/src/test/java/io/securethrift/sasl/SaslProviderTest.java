package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.testing.GssapiSasl;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.KerberosLogin;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.Provider;
import java.security.Security;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * securethrift's GSSAPI mechanism reached as unmodified code reaches it: libthrift's {@code TSaslClientTransport} and
 * {@code TSaslServerTransport} on both ends, set up as Accumulo sets them up, with {@link SecureThriftSaslProvider}
 * installed (so {@code Sasl.createSaslServer} finds it) or not (the JDK's mechanism), and clients given the mechanism
 * of either. Every pairing at every level writes and reads messages large and small; AES-GCM is used exactly when
 * both ends are securethrift's at {@code auth-conf}, and each end says so through {@code securethrift.sasl.privacy}.
 */
@ExtendWith(KdcExtension.class)
class SaslProviderTest {
  private static final int LARGE = 200 * 1024;

  /** Whose GSSAPI mechanism one end runs: securethrift's, the JDK's, or whichever {@code Sasl} finds first. */
  enum Mechanism { OURS, JDK, LOOKED_UP }

  @AfterEach
  void removeProvider() {
    Security.removeProvider(SecureThriftSaslProvider.NAME);
  }

  @UsesJdkGssapi
  @ParameterizedTest(name = "client {0}, server {1}, {2}")
  @CsvSource({"OURS, OURS, AUTH", "OURS, OURS, AUTH_INT", "OURS, OURS, AUTH_CONF",
      "JDK, OURS, AUTH", "JDK, OURS, AUTH_INT", "JDK, OURS, AUTH_CONF",
      "OURS, JDK, AUTH", "OURS, JDK, AUTH_INT", "OURS, JDK, AUTH_CONF"})
  void libthriftTransportsOnEitherMechanism(Mechanism client, Mechanism server, QualityOfProtection qop,
      EmbeddedKdc kdc) throws Exception {
    if (server == Mechanism.OURS) {
      assertTrue(SecureThriftSaslProvider.install());
    }
    String privacy = qop != QualityOfProtection.AUTH_CONF ? null
        : client == Mechanism.OURS && server == Mechanism.OURS ? "aes-gcm" : "gss";
    try (Server s = new Server(kdc, qop, Map.of());
        TSaslClientTransport transport = client(kdc, client, qop, s.port(), Map.of())) {
      SaslClient sasl = transport.getSaslClient();
      assertEquals(qop.token(), sasl.getNegotiatedProperty(Sasl.QOP));
      EchoServer.assertEchoes(EchoServer.client(transport), 0, 1, 1000, LARGE);
      SaslServer accepted = s.accepted();
      assertEquals(qop.token(), accepted.getNegotiatedProperty(Sasl.QOP));
      assertEquals("client@" + kdc.realm(), accepted.getAuthorizationID());
      if (client == Mechanism.OURS) {
        assertEquals(privacy, sasl.getNegotiatedProperty(GssLayer.PRIVACY));
      }
      if (server == Mechanism.OURS) {
        assertEquals(privacy, accepted.getNegotiatedProperty(GssLayer.PRIVACY));
      }
    }
  }

  @Test
  void gssPrivacySettingKeepsStandardWrapping(EmbeddedKdc kdc) throws Exception {
    assertTrue(SecureThriftSaslProvider.install());
    try (Server s = new Server(kdc, QualityOfProtection.AUTH_CONF, Map.of());
        TSaslClientTransport transport = client(kdc, Mechanism.OURS, QualityOfProtection.AUTH_CONF, s.port(),
            Map.of(GssLayer.PRIVACY, "gss"))) {
      EchoServer.assertEchoes(EchoServer.client(transport), 1000);
      assertEquals("gss", transport.getSaslClient().getNegotiatedProperty(GssLayer.PRIVACY));
      assertEquals("gss", s.accepted().getNegotiatedProperty(GssLayer.PRIVACY));
    }
  }

  @UsesJdkGssapi
  @Test
  void requiredAesGcmRefusesAServerWithoutIt(EmbeddedKdc kdc) throws Exception {
    try (Server s = new Server(kdc, QualityOfProtection.AUTH_CONF, Map.of())) {
      TTransportException e = assertThrows(TTransportException.class, () -> client(kdc, Mechanism.OURS,
          QualityOfProtection.AUTH_CONF, s.port(), Map.of(GssLayer.PRIVACY, "aes-gcm")));
      assertTrue(e.getMessage().contains("securethrift.sasl.privacy=aes-gcm on this client requires AES-GCM"),
          e.getMessage());
    }
  }

  @Test
  void aManInTheMiddleCannotStrikeTheAesGcmOffer(EmbeddedKdc kdc) throws Exception {
    assertTrue(SecureThriftSaslProvider.install());
    try (Server s = new Server(kdc, QualityOfProtection.AUTH_CONF, Map.of());
        RewritingRelay relay = RewritingRelay.to(s.port(), SaslProviderTest::strikeAesGcmBit, m -> m)) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> client(kdc, Mechanism.OURS, QualityOfProtection.AUTH_CONF, relay.port(), Map.of()));
      assertTrue(e.getMessage().contains("security layer offer failed its GSS check"), e.getMessage());
      assertTrue(relay.serverMessages().size() >= 2, "the relay saw the offer");
      // The server is unharmed and serves the next client with AES-GCM.
      try (TSaslClientTransport transport = client(kdc, Mechanism.OURS, QualityOfProtection.AUTH_CONF, s.port(),
          Map.of())) {
        EchoServer.assertEchoes(EchoServer.client(transport), 1000);
        assertEquals("aes-gcm", transport.getSaslClient().getNegotiatedProperty(GssLayer.PRIVACY));
      }
    }
  }

  /**
   * A man in the middle who drops the last records of a large wrapped message, and shortens the frame to match, gets
   * the connection closed rather than a prefix of the message delivered; the server names why and serves the next
   * client.
   */
  @Test
  void aWrappedMessageCutAfterARecordIsRefusedAndTheServerServesOthers(EmbeddedKdc kdc) throws Exception {
    assertTrue(SecureThriftSaslProvider.install());
    try (LogCapture log = LogCapture.start();
        Server s = new Server(kdc, QualityOfProtection.AUTH_CONF, Map.of());
        TSaslClientTransport transport = client(kdc, Mechanism.OURS, QualityOfProtection.AUTH_CONF, s.port(),
            Map.of())) {
      byte[] sealed = transport.getSaslClient().wrap(new byte[LARGE], 0, LARGE);
      int firstRecord = GcmRecords.RECORD + GcmRecords.TAG;
      assertTrue(sealed.length > firstRecord, "a message of " + LARGE + " bytes is several records");
      TSocket socket = (TSocket) transport.getUnderlyingTransport();
      socket.setTimeout(30_000);
      socket.write(ByteBuffer.allocate(4).putInt(firstRecord).array());
      socket.write(sealed, 0, firstRecord);
      socket.flush();
      assertThrows(TTransportException.class, () -> socket.readAll(new byte[4], 0, 4),
          "the server closes the connection");
      List<String> refused = log.awaitLines("failed authentication", 1, Duration.ofSeconds(30));
      assertTrue(refused.get(0).contains("AES-GCM message of " + firstRecord + " bytes failed authentication"),
          refused.get(0));
      try (TSaslClientTransport next = client(kdc, Mechanism.OURS, QualityOfProtection.AUTH_CONF, s.port(),
          Map.of())) {
        EchoServer.assertEchoes(EchoServer.client(next), 1000);
      }
    }
  }

  @Test
  void providerLeavesOtherMechanismsToTheJdk() throws Exception {
    assertTrue(SecureThriftSaslProvider.install());
    assertFalse(SecureThriftSaslProvider.install(), "a second install is a no-op");
    assertEquals(SecureThriftSaslProvider.NAME, Security.getProviders()[0].getName());
    Provider[] gssapi = Security.getProviders("SaslClientFactory.GSSAPI");
    assertEquals(SecureThriftSaslProvider.NAME, gssapi[0].getName());
    for (String mechanism : new String[] {"DIGEST-MD5", "PLAIN", "CRAM-MD5", "EXTERNAL"}) {
      SaslClient client = Sasl.createSaslClient(new String[] {mechanism}, null, "accumulo", "localhost", Map.of(),
          SaslProviderTest::userAndPassword);
      assertNotNull(client, mechanism);
      assertEquals(mechanism, client.getMechanismName());
    }
    SaslClientFactory forward = null;
    for (SaslClientFactory f : java.util.Collections.list(Sasl.getSaslClientFactories())) {
      if (java.util.Arrays.asList(f.getMechanismNames(Map.of(Sasl.POLICY_FORWARD_SECRECY, "true")))
          .contains("GSSAPI")) {
        forward = f;
      }
    }
    assertNull(forward, "GSSAPI claims forward secrecy only where a policy asks for none");
  }

  private static void userAndPassword(Callback[] callbacks) {
    for (Callback c : callbacks) {
      if (c instanceof NameCallback) {
        ((NameCallback) c).setName("alice");
      } else if (c instanceof PasswordCallback) {
        ((PasswordCallback) c).setPassword("secret".toCharArray());
      }
    }
  }

  /** Flips {@link SecurityLayer#AES_GCM} in the server's offer: the first RFC 4121 wrap token, plain text at 16. */
  private static String strikeAesGcmBit(String payload) {
    byte[] bytes = payload.getBytes(StandardCharsets.ISO_8859_1);
    if (bytes.length > 16 && bytes[0] == 0x05 && bytes[1] == 0x04 && (bytes[16] & SecurityLayer.AES_GCM) != 0) {
      bytes[16] ^= SecurityLayer.AES_GCM;
    }
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** An open libthrift client transport to {@code port} running {@code mechanism}'s GSSAPI client, as {@code user}. */
  private static TSaslClientTransport client(EmbeddedKdc kdc, Mechanism mechanism, QualityOfProtection qop, int port,
      Map<String, String> extra) throws Exception {
    return client(SaslConfigs.client(kdc), mechanism, qop, port, extra);
  }

  static TSaslClientTransport client(KerberosIdentity user, Mechanism mechanism, QualityOfProtection qop, int port,
      Map<String, String> extra) throws Exception {
    Subject subject = KerberosLogin.login(user);
    Map<String, String> props = new java.util.HashMap<>(LibthriftPeers.props(qop));
    props.putAll(extra);
    return LibthriftPeers.as(subject, () -> {
      TSocket socket = new TSocket(SaslConfigs.HOST, port);
      TSaslClientTransport transport;
      if (mechanism == Mechanism.LOOKED_UP) {
        transport = new TSaslClientTransport("GSSAPI", null, "accumulo", SaslConfigs.HOST, props, null, socket);
      } else {
        SaslClientFactory factory =
            mechanism == Mechanism.OURS ? GssapiFactory.INSTANCE : GssapiSasl.jdkClientFactory();
        transport = new TSaslClientTransport(factory.createSaslClient(new String[] {"GSSAPI"}, null, "accumulo",
            SaslConfigs.HOST, props, null), socket);
      }
      transport.open();
      return transport;
    });
  }

  /**
   * A libthrift TThreadPoolServer taking GSSAPI through {@code TSaslServerTransport.Factory}, which finds the
   * mechanism with {@code Sasl.createSaslServer}: securethrift's when the provider is installed, else the JDK's.
   */
  static final class Server implements AutoCloseable {
    private final EchoServer echo;
    private final BlockingQueue<SaslServer> accepted = new LinkedBlockingQueue<>();

    Server(EmbeddedKdc kdc, QualityOfProtection qop, Map<String, String> extra) throws Exception {
      this(SaslConfigs.service(kdc), qop, extra);
    }

    Server(KerberosIdentity service, QualityOfProtection qop, Map<String, String> extra) throws Exception {
      Subject subject = KerberosLogin.login(service);
      Map<String, String> props = new java.util.HashMap<>(LibthriftPeers.props(qop));
      props.putAll(extra);
      TSaslServerTransport.Factory sasl = new TSaslServerTransport.Factory();
      sasl.addServerDefinition("GSSAPI", "accumulo", SaslConfigs.HOST, props, new ServerCallbacks(null));
      TTransportFactory recording = new TTransportFactory() {
        @Override
        public TTransport getTransport(TTransport trans) throws TTransportException {
          TTransport t = LibthriftPeers.as(subject, () -> sasl.getTransport(trans));
          accepted.add(((TSaslServerTransport) t).getSaslServer());
          return t;
        }
      };
      TServerSocket socket = new TServerSocket(0);
      echo = EchoServer.start(new TThreadPoolServer.Args(socket).transportFactory(recording)
          .processor(EchoServer.processor()), EchoServer.portOf(socket));
    }

    int port() {
      return echo.port();
    }

    /** The mechanism of the next connection the server completed. */
    SaslServer accepted() throws InterruptedException {
      SaslServer s = accepted.poll(30, TimeUnit.SECONDS);
      assertNotNull(s, "the server completed no negotiation");
      return s;
    }

    @Override
    public void close() throws Exception {
      echo.close();
    }
  }
}
