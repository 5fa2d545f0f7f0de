package io.securethrift.sasl;

import io.securethrift.core.testservice.LogCapture;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** sasl-over-tls end to end: TLS (from the test CA) protects the bytes, Kerberos authenticates the caller. */
@ExtendWith({KdcExtension.class, CertificateAuthorityExtension.class})
class SaslOverTlsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @Test
  void kerberosAuthenticatesAndTlsProtects(EmbeddedKdc kdc, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    Path keyStore = ca.leaf().addSubjectAlternativeName(SaslConfigs.HOST).issue()
        .writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    SecurityConfig server = SaslConfigs.server(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH).toBuilder()
        .mode(SecurityMode.SASL_OVER_TLS).keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
    SecurityConfig client = SaslConfigs.client(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH).toBuilder()
        .mode(SecurityMode.SASL_OVER_TLS).trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).build();
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory serverFactory = ServerTransportFactory.create(server);
        EchoServer echo = EchoServer.start(serverFactory);
        ClientTransportFactory clientFactory = ClientTransportFactory.create(client);
        SecuredTransport transport = clientFactory.open(SaslConfigs.HOST, echo.port())) {
      PeerIdentity identity = transport.peerIdentity();
      assertTrue(identity.tlsProtocol().isPresent(), identity.toString());
      assertEquals(QualityOfProtection.AUTH, identity.qop().orElseThrow());
      var service = EchoServer.client(transport);
      byte[] payload = new byte[300 * 1024];
      new Random(7).nextBytes(payload);
      ByteBuffer echoed = service.echo(ByteBuffer.wrap(payload));
      byte[] got = new byte[echoed.remaining()];
      echoed.get(got);
      assertArrayEquals(payload, got);
      String who = service.whoAmI();
      assertTrue(who.startsWith("PeerIdentity[sasl-over-tls ") && who.contains("principal=client@" + kdc.realm()
          + " GSSAPI auth TLSv1.3"), who);
      // auth is the right level here: TLS protects the RPCs, so neither factory warns that they are unprotected.
      assertTrue(log.lines("runs at auth without TLS").isEmpty(), log.text());
    }
  }
}
