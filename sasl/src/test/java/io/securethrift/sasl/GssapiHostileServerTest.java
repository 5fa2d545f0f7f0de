package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosLogin;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.security.auth.Subject;
import org.apache.thrift.transport.TTransportException;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.MessageProp;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A server that holds the real service keys (so its tokens pass every Kerberos check) and then sends what no
 * mechanism would: an offer of the wrong length, an offer of nothing the client knows, an AES-GCM key reply cut
 * short, of another version, or whose confirmation does not match. securethrift's client refuses each naming the
 * fault, and tells the server why with BAD.
 */
@ExtendWith(KdcExtension.class)
class GssapiHostileServerTest {
  private static final int OK = 2;
  private static final int BAD = 3;
  private static final int COMPLETE = 5;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "offer too long  | 1401000000 | -        | security layer offer of 5 bytes, where RFC 4752 sends 4",
      "offer of 0x40   | 40010000   | -        | server offers [0x40]",
      "reply cut short | 14010000   | 01aa     | AES-GCM key reply of 2 bytes and version 1",
      "reply version 2 | 14010000   | 02 48*00 | AES-GCM key reply of 49 bytes and version 2",
      "forged confirm  | 14010000   | 01 09 31*00 16*00 | key confirmation does not match"})
  void clientRefusesNamingTheFault(String name, String offerHex, String replyHex, String expected, EmbeddedKdc kdc)
      throws Exception {
    Subject service = KerberosLogin.login(SaslConfigs.service(kdc), false);
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.client(kdc, SaslMechanism.GSSAPI,
            QualityOfProtection.AUTH_CONF).toBuilder().saslPrivacy(SaslPrivacy.AES_GCM_PREFERRED).build())) {
      CompletableFuture<String> server = CompletableFuture.supplyAsync(() -> {
        try {
          return LibthriftPeers.as(service, () -> serve(listening, Hex.bytes(offerHex),
              replyHex.equals("-") ? null : Hex.bytes(replyHex)));
        } catch (TTransportException e) {
          throw new IllegalStateException(e);
        }
      });
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, listening.getLocalPort()));
      assertTrue(e.getMessage().contains(expected), e.getMessage());
      String told = server.get(30, TimeUnit.SECONDS);
      assertTrue(told.startsWith(BAD + ":") && told.contains(expected), told);
    }
  }

  /**
   * Plays the server: accepts the client's context, sends {@code offer} wrapped, and, if the client chose AES-GCM,
   * {@code reply} wrapped in COMPLETE; returns what the client sent last.
   */
  private static String serve(ServerSocket listening, byte[] offer, byte[] reply) throws Exception {
    GSSManager manager = GSSManager.getInstance();
    GSSContext context = manager.createContext(manager.createCredential(null, GSSCredential.INDEFINITE_LIFETIME,
        Krb5Contexts.MECHANISM, GSSCredential.ACCEPT_ONLY));
    try (Socket socket = listening.accept()) {
      SaslWire.expect(socket, 1); // START with the mechanism's name
      byte[] apReq = SaslWire.expect(socket, OK);
      SaslWire.send(socket, OK, context.acceptSecContext(apReq, 0, apReq.length));
      assertEquals(0, SaslWire.expect(socket, OK).length, "the client's empty answer to the AP-REP");
      SaslWire.send(socket, OK, context.wrap(offer, 0, offer.length, new MessageProp(0, false)));
      if (reply == null) {
        return SaslWire.read(socket);
      }
      SaslWire.expect(socket, OK); // the client's AES-GCM choice
      SaslWire.send(socket, COMPLETE, context.wrap(reply, 0, reply.length, new MessageProp(0, false)));
      return SaslWire.read(socket);
    } finally {
      context.dispose();
    }
  }
}
