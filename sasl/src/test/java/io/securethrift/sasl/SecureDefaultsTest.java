package io.securethrift.sasl;

import io.securethrift.core.testservice.LogCapture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Without a QOP setting connections are encrypted (auth-conf); a factory whose connections run at auth with no TLS
 * underneath says once that their RPCs are unprotected.
 */
@ExtendWith(KdcExtension.class)
class SecureDefaultsTest {
  private static final String UNPROTECTED = " runs at auth without TLS underneath: its RPCs are authenticated but"
      + " neither integrity- nor confidentiality-protected; list auth-conf in securethrift.sasl.qop, or use"
      + " securethrift.mode=sasl-over-tls (logged once per factory)";

  @Test
  void kerberosWithoutAQopSettingIsEncryptedAndWarnsNothing(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity service = SaslConfigs.service(kdc);
    KerberosIdentity client = SaslConfigs.client(kdc);
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory servers = ServerTransportFactory.create(SaslConfigs.base(SaslMechanism.GSSAPI)
            .kerberosLogin(service.principal(), service.keytab()).build());
        EchoServer server = EchoServer.start(servers);
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.base(SaslMechanism.GSSAPI)
            .kerberosLogin(client.principal(), client.keytab()).build());
        SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port())) {
      assertEquals(QualityOfProtection.AUTH_CONF, transport.peerIdentity().qop().orElseThrow());
      String who = EchoServer.client(transport).whoAmI();
      assertTrue(who.contains("GSSAPI auth-conf"), who);
      // The server logs before it answers the call, so an answered call means its warning would be there.
      assertTrue(log.lines(UNPROTECTED).isEmpty(), log.text());
    }
  }

  @Test
  void authWithoutTlsWarnsOncePerClientAndServerFactory() throws Exception {
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory servers = ServerTransportFactory.create(SaslConfigs.digestServer()
            .qop(QualityOfProtection.AUTH).build());
        EchoServer server = EchoServer.start(servers);
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient()
            .qop(QualityOfProtection.AUTH).build())) {
      for (int i = 0; i < 3; i++) {
        try (SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port())) {
          EchoServer.client(transport).whoAmI();
        }
      }
      assertEquals(1, log.lines(UNPROTECTED).stream().filter(l -> l.contains("SASL server connection with /127.0.0.1:"))
          .count(), log.text());
      assertEquals(1, log.lines("SASL client connection with localhost" + UNPROTECTED).size(), log.text());
      assertEquals(2, log.lines(UNPROTECTED).size(), log.text());
    }
  }
}
