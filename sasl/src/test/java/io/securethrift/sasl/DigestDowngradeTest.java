package io.securethrift.sasl;

import io.securethrift.core.testservice.LogCapture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/**
 * A man in the middle (a real relay between a real client and server) rewriting the DIGEST-MD5 server's first
 * challenge, whose level and cipher lists the digest does not protect. With the defaults (auth-conf as the only level,
 * high strength) every rewrite is refused with a message naming what was wrong and which setting decides it.
 */
class DigestDowngradeTest {
  /** What the server offers at the default minimum strength: 3DES alone, though the JDK's server has all five. */
  private static final String OFFER = "cipher=\"3des\"";
  private static final UnaryOperator<String> UNCHANGED = UnaryOperator.identity();
  private static final String BELOW_HIGH = ", below the minimum high (securethrift.sasl.digest.min.strength); a man in"
      + " the middle may have rewritten the server's cipher list: run DIGEST-MD5 over sasl-over-tls, and lower the"
      + " setting only for a peer that truly has no stronger cipher";

  /** Replaces the server's cipher list, whatever it is, with {@code list}. */
  private static UnaryOperator<String> ciphers(String list) {
    return challenge -> challenge.replaceFirst("cipher=\"[^\"]*\"", "cipher=\"" + list + "\"");
  }

  /** A DIGEST-MD5 server with {@code server}'s settings and a relay in front of it applying {@code toClient}. */
  private static final class Rig implements AutoCloseable {
    final ServerTransportFactory factory;
    final EchoServer server;
    final RewritingRelay relay;

    Rig(SecurityConfig server, UnaryOperator<String> toClient) throws Exception {
      this.factory = ServerTransportFactory.create(server);
      this.server = EchoServer.start(factory);
      this.relay = RewritingRelay.to(this.server.port(), toClient, UNCHANGED);
    }

    /** The server's messages, the last one being its BAD reply when it refused. */
    List<String> serverMessages() {
      return relay.serverMessages();
    }

    @Override
    public void close() throws IOException {
      relay.close();
      try {
        server.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        factory.close();
      }
    }
  }

  @Test
  void unchangedChallengeGivesAuthConfWithAHighStrengthCipherByDefault() throws Exception {
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(), UNCHANGED);
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient().build());
        SecuredTransport transport = clients.open(SaslConfigs.HOST, rig.relay.port())) {
      PeerIdentity server = transport.peerIdentity();
      assertEquals(QualityOfProtection.AUTH_CONF, server.qop().orElseThrow());
      assertEquals("3des", server.saslCipher().orElseThrow());
      assertEquals(CipherStrength.HIGH, server.saslStrength().orElseThrow());
      String client = EchoServer.client(transport).whoAmI();
      assertTrue(client.contains(" DIGEST-MD5 auth-conf/gss cipher=3des strength=high]"), client);
      assertTrue(rig.serverMessages().get(0).contains(OFFER), "the offer a rewrite targets: "
          + rig.serverMessages().get(0));
    }
  }

  /**
   * Accumulo's delegation-token client (libthrift's transport on the JDK's mechanism, no strength set) prefers RC4
   * when a server offers it, as the JDK's server does; this server offers 3DES alone, so it gets 3DES.
   */
  @Test
  void stockClientGetsThreeDesFromTheServersOffer() throws Exception {
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(), UNCHANGED)) {
      TTransport transport = LibthriftPeers.client(null, SaslMechanism.DIGEST_MD5, QualityOfProtection.AUTH_CONF,
          rig.relay.port());
      try {
        String seen = EchoServer.client(transport).whoAmI();
        assertTrue(seen.contains(" DIGEST-MD5 auth-conf/gss cipher=3des strength=high]"), seen);
      } finally {
        transport.close();
      }
    }
  }

  /** A man in the middle who leaves only 128-bit RC4 (high to the JDK) is refused by our client and our server. */
  @Test
  void offerCutToRc4IsRefusedByEachSide() throws Exception {
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(), ciphers("rc4"));
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient().build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, rig.relay.port()));
      assertEquals("SASL DIGEST-MD5 negotiation with localhost failed: server offers auth-conf only with ciphers"
          + " [rc4] (strength medium)" + BELOW_HIGH, e.getMessage());
      TTransportException stock = assertThrows(TTransportException.class, () -> LibthriftPeers.client(null,
          SaslMechanism.DIGEST_MD5, QualityOfProtection.AUTH_CONF, rig.relay.port()).close());
      String refusal = "client chose cipher rc4 (strength medium)" + BELOW_HIGH;
      assertTrue(stock.getMessage().contains("Peer indicated failure: " + refusal), stock.getMessage());
    }
  }

  @Test
  void cipherListCutToFortyBitsIsRefusedByOurClient() throws Exception {
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(), ciphers("rc4-40"));
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient().build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, rig.relay.port()));
      assertEquals("SASL DIGEST-MD5 negotiation with localhost failed: server offers auth-conf only with ciphers"
          + " [rc4-40] (strength low)" + BELOW_HIGH, e.getMessage());
    }
  }

  @Test
  void libthriftClientTakingTheFortyBitCipherIsRefusedByOurServer() throws Exception {
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(), ciphers("rc4-40"))) {
      // The JDK client's default strengths include low, so it picks rc4-40; the KDC is for GSSAPI only.
      TTransportException e = assertThrows(TTransportException.class, () -> LibthriftPeers.client(null,
          SaslMechanism.DIGEST_MD5, QualityOfProtection.AUTH_CONF, rig.relay.port()).close());
      String refusal = "client chose cipher rc4-40 (strength low)" + BELOW_HIGH;
      assertTrue(e.getMessage().contains("Peer indicated failure: " + refusal), e.getMessage());
      assertEquals("3:" + refusal, rig.serverMessages().get(rig.serverMessages().size() - 1));
    }
  }

  @Test
  void minimumStrengthIsCheckedOnEachSide() throws Exception {
    SecurityConfig mediumClient = SaslConfigs.digestClient().digestMinStrength(CipherStrength.MEDIUM).build();
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(), ciphers("rc4-56,rc4-40"));
        ClientTransportFactory clients = ClientTransportFactory.create(mediumClient)) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, rig.relay.port()));
      assertEquals("SASL DIGEST-MD5 negotiation with localhost failed: Peer indicated failure: client chose cipher"
          + " rc4-56 (strength medium)" + BELOW_HIGH, e.getMessage());
    }
    try (Rig rig = new Rig(SaslConfigs.digestServer().digestMinStrength(CipherStrength.MEDIUM).build(),
            ciphers("rc4-56,rc4-40"));
        ClientTransportFactory clients = ClientTransportFactory.create(mediumClient);
        SecuredTransport transport = clients.open(SaslConfigs.HOST, rig.relay.port())) {
      assertEquals("rc4-56", transport.peerIdentity().saslCipher().orElseThrow());
      assertEquals(CipherStrength.MEDIUM, transport.peerIdentity().saslStrength().orElseThrow());
    }
  }

  @Test
  void levelOfferCutToAuthIsRefusedNamingBothSidesLevels() throws Exception {
    try (Rig rig = new Rig(SaslConfigs.digestServer().build(),
            challenge -> challenge.replace("qop=\"auth-conf\"", "qop=\"auth\""));
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient().build())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, rig.relay.port()));
      assertEquals("SASL DIGEST-MD5 negotiation with localhost failed: no SASL quality of protection acceptable to"
          + " both sides: client accepts [auth-conf], server offers [auth]", e.getMessage());
      assertTrue(rig.serverMessages().get(0).contains("qop=\"auth-conf\""), rig.serverMessages().get(0));
    }
  }

  @Test
  void listingSeveralLevelsLetsTheRewriteThroughAndEachFactoryWarnsOnce() throws Exception {
    List<QualityOfProtection> both = List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH);
    try (LogCapture log = LogCapture.start();
        Rig rig = new Rig(SaslConfigs.digestServer().qop(both).build(),
            challenge -> challenge.replace("qop=\"auth-conf,auth\"", "qop=\"auth\""));
        ClientTransportFactory clients = ClientTransportFactory.create(SaslConfigs.digestClient().qop(both).build())) {
      for (int i = 0; i < 2; i++) {
        try (SecuredTransport transport = clients.open(SaslConfigs.HOST, rig.relay.port())) {
          assertEquals(QualityOfProtection.AUTH, transport.peerIdentity().qop().orElseThrow());
        }
      }
      String warning = " accepts several protection levels [auth-conf, auth] (securethrift.sasl.qop) without TLS"
          + " underneath: the server's offer travels outside the digest, so a man in the middle can make connections"
          + " use the weakest listed level, auth; list only auth-conf, or use securethrift.mode=sasl-over-tls";
      assertEquals(1, log.lines("DIGEST-MD5 server" + warning).size(), log.text());
      assertEquals(1, log.lines("DIGEST-MD5 client" + warning).size(), log.text());
      // The server logs after it has sent COMPLETE, so the client may be done before the line is written.
      log.awaitLines("SASL server connection with", 1, Duration.ofSeconds(10)).get(0);
      assertEquals(2, log.lines(" runs at auth without TLS underneath").size(), log.text());
    }
  }
}
