package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosLogin;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import javax.security.auth.Subject;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.MessageProp;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A client that authenticates with Kerberos for real (its own GSS context, so every token is genuinely wrapped) and
 * then sends a security layer choice no mechanism would: too short, two layers, a layer not offered, a channel
 * binding the server did not offer to check, an AES-GCM choice cut short, of an unknown version or cipher, sent
 * without encryption, or with an authorization id that is not UTF-8.
 * The securethrift server refuses each with BAD naming what was wrong, and serves the next client with AES-GCM.
 */
@ExtendWith(KdcExtension.class)
class GssapiHostileChoiceTest {
  private static final int START = 1;
  private static final int OK = 2;
  private static final int BAD = 3;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "short         | 0402                          | true  | shorter than its 4-byte header",
      "two layers    | 06010000                      | false | chose security layer 0x6, which is not one of",
      "not offered   | 40010000                      | false | chose security layer 0x40",
      "binding sent  | 21010000 20*00                | false | a channel binding this server did not offer to check",
      "gcm cut short | 1001000001020000              | true  | shorter than the 70 its key share needs",
      "gcm version 9 | 10010000 0902 64*00           | true  | of version 9 and cipher 2",
      "gcm cipher 7  | 10010000 0107 64*00           | true  | of version 1 and cipher 7",
      "gcm unsealed  | 10010000 0102 64*11           | false | was not encrypted, so its secret is not secret",
      "bad authz     | 04010000 ff fe                | false | is not UTF-8"})
  void refusedAndTheServerGoesOn(String name, String choiceHex, boolean encrypted, String expected, EmbeddedKdc kdc)
      throws Exception {
    try (ServerTransportFactory factory = ServerTransportFactory.create(
            SaslConfigs.server(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF).toBuilder()
                .saslPrivacy(SaslPrivacy.AES_GCM_PREFERRED).build());
        EchoServer server = EchoServer.start(factory)) {
      Subject subject = KerberosLogin.login(SaslConfigs.client(kdc));
      String reply = LibthriftPeers.as(subject, () -> sendChoice(server.port(), Hex.bytes(choiceHex), encrypted));
      assertTrue(reply.startsWith(BAD + ":"), reply);
      assertTrue(reply.contains(expected), reply);
      try (ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.client(kdc,
              SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF).toBuilder()
              .saslPrivacy(SaslPrivacy.AES_GCM_PREFERRED).build());
          SecuredTransport transport = clients.open(SaslConfigs.HOST, server.port())) {
        EchoServer.assertEchoes(EchoServer.client(transport), 1000);
        assertEquals(Optional.of(SaslPrivacy.AES_GCM), transport.peerIdentity().privacy());
      }
    }
  }

  /** Authenticates, checks the offer, sends {@code choice} wrapped, and returns the server's answer. */
  private static String sendChoice(int port, byte[] choice, boolean encrypted) throws Exception {
    GSSManager manager = GSSManager.getInstance();
    GSSContext context = manager.createContext(manager.createName("accumulo@" + SaslConfigs.HOST,
        GSSName.NT_HOSTBASED_SERVICE, Krb5Contexts.MECHANISM), Krb5Contexts.MECHANISM, null,
        GSSContext.DEFAULT_LIFETIME);
    context.requestMutualAuth(true);
    context.requestConf(true);
    try (Socket socket = new Socket(SaslConfigs.HOST, port)) {
      SaslWire.send(socket, START, "GSSAPI".getBytes(StandardCharsets.US_ASCII));
      SaslWire.send(socket, OK, context.initSecContext(new byte[0], 0, 0));
      byte[] apRep = SaslWire.expect(socket, OK);
      context.initSecContext(apRep, 0, apRep.length);
      assertTrue(context.isEstablished());
      SaslWire.send(socket, OK, new byte[0]);
      byte[] wrapped = SaslWire.expect(socket, OK);
      byte[] offer = context.unwrap(wrapped, 0, wrapped.length, new MessageProp(0, false));
      assertEquals(SecurityLayer.AES_GCM | SecurityLayer.CONFIDENTIALITY, offer[0], "the server's offer");
      SaslWire.send(socket, OK, context.wrap(choice, 0, choice.length, new MessageProp(0, encrypted)));
      return SaslWire.read(socket);
    } finally {
      context.dispose();
    }
  }
}
