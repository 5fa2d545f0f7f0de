package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client whose ticket expired and whose re-login fails (its principal is gone) is refused before its handshake,
 * with a message naming the server (host:port), the principal and when the ticket expired: the "expired credentials"
 * case of a failed call, against a real GSSAPI server.
 */
class ExpiredCredentialsTest {
  private static final Duration LIFETIME = Duration.ofSeconds(2);

  @RegisterExtension
  static final KdcExtension KDC = KdcExtension.builder().ticketLifetime(LIFETIME).clockSkew(Duration.ofSeconds(1))
      .build();

  @Test
  void expiredTicketThatCannotBeRenewedFailsTheHandshakeNamingPeerAndPrincipal(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity client = kdc.principal("departed");
    SecurityConfig clientConfig = SaslConfigs.base(SaslMechanism.GSSAPI, List.of(QualityOfProtection.AUTH))
        .kerberosLogin(client.principal(), client.keytab()).build();
    try (ServerTransportFactory servers = ServerTransportFactory.create(
            SaslConfigs.server(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH));
        EchoServer server = EchoServer.start(servers);
        ClientTransportFactory clients = ClientTransportFactory.create(clientConfig)) {
      try (SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port())) {
        ByteBuffer one = ByteBuffer.wrap(new byte[] {1});
        assertEquals(one, EchoServer.client(transport).echo(one.duplicate()));
      }
      kdc.deletePrincipal("departed");
      // Every ticket the client holds was issued before the principal was deleted, including one from a re-login that
      // a first connection slower than the lifetime made (seen on loaded CI machines): past the lifetime (plus the
      // clock skew) from now, it has surely expired.
      Instant expired = Instant.now().plus(LIFETIME).plusSeconds(1);
      Await.until("expiry of the client's ticket", Duration.ofSeconds(30), () -> Instant.now().isAfter(expired));

      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, server.port()));
      assertTrue(e.getMessage().startsWith("handshake with " + SaslConfigs.HOST + ":" + server.port()
          + " failed: Kerberos ticket of departed@" + kdc.realm() + " (realm " + kdc.realm() + ") expired at "),
          e.getMessage());
      assertTrue(e.getMessage().contains(" and the re-login failed: "), e.getMessage());
    }
  }
}
