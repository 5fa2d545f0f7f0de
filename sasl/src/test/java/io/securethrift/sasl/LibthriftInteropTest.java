package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.testing.UsesJdkGssapi;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.OpenConnection;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Our transports against libthrift's TSaslClientTransport and TSaslServerTransport in this JVM (0.25.0 or 0.17.0,
 * whichever the test run puts on the class path), every mechanism and QOP, with messages large enough to be split
 * into several wrapped tokens.
 */
@ExtendWith(KdcExtension.class)
class LibthriftInteropTest {
  private static final int LARGE = 200 * 1024;

  private static void echoes(EchoService.Client client) throws Exception {
    EchoServer.assertEchoes(client, 0, 1, 1000, LARGE);
  }

  @UsesJdkGssapi
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"GSSAPI, AUTH", "GSSAPI, AUTH_INT", "GSSAPI, AUTH_CONF",
      "DIGEST_MD5, AUTH", "DIGEST_MD5, AUTH_INT", "DIGEST_MD5, AUTH_CONF"})
  void ourClientTalksToLibthriftServer(SaslMechanism mechanism, QualityOfProtection qop, EmbeddedKdc kdc)
      throws Exception {
    try (EchoServer server = LibthriftPeers.server(kdc, qop);
        ClientTransportFactory factory = ClientTransportFactory.create(SaslConfigs.client(kdc, mechanism, qop));
        SecuredTransport transport = factory.open(SaslConfigs.HOST, server.port())) {
      assertEquals(qop, transport.peerIdentity().qop().orElseThrow());
      assertEquals(mechanism.mechanismName(), transport.peerIdentity().mechanism().orElseThrow());
      if (mechanism == SaslMechanism.DIGEST_MD5 && qop == QualityOfProtection.AUTH_CONF) {
        // The JDK's server offers RC4 too, which the JDK's client would prefer; securethrift's asks for 3DES.
        assertEquals("3des", transport.peerIdentity().saslCipher().orElseThrow());
      }
      if (qop.wrapsMessages()) {
        // The large message goes out as several wrapped tokens, which libthrift must read frame by frame.
        SaslTransport sasl = (SaslTransport) OpenConnection.of(transport);
        assertTrue(sasl.chunkSize() < LARGE / 2, "chunk " + sasl.chunkSize());
      }
      echoes(EchoServer.client(transport));
    }
  }

  @UsesJdkGssapi
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"GSSAPI, AUTH", "GSSAPI, AUTH_INT", "GSSAPI, AUTH_CONF",
      "DIGEST_MD5, AUTH", "DIGEST_MD5, AUTH_INT", "DIGEST_MD5, AUTH_CONF"})
  void libthriftClientTalksToOurServer(SaslMechanism mechanism, QualityOfProtection qop, EmbeddedKdc kdc)
      throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(SaslConfigs.server(kdc, mechanism, qop));
        EchoServer server = EchoServer.start(factory);
        TTransport transport = LibthriftPeers.client(kdc, mechanism, qop, server.port())) {
      EchoService.Client client = EchoServer.client(transport);
      echoes(client);
      String who = client.whoAmI();
      String principal = mechanism == SaslMechanism.GSSAPI ? "client@" + kdc.realm()
          : java.util.Base64.getEncoder().encodeToString(SaslConfigs.TOKEN.identifier());
      assertTrue(who.contains("principal=" + principal + " " + mechanism.mechanismName() + " " + qop.token()), who);
    }
  }
}
