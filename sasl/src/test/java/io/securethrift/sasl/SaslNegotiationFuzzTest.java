package io.securethrift.sasl;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.testing.ParserOracle;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.List;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Fuzzes SASL negotiation from both ends, each time with the library's real layer and the JDK's DIGEST-MD5 mechanism
 * (no KDC needed): the server reading what a client sends ({@link ServerNegotiation} behind {@link SaslServerLayer})
 * and the client reading what a server sends ({@link ClientNegotiation} behind {@link SaslClientLayer}). The input is
 * the peer's whole byte stream; the layer's only documented failure is a {@link TTransportException}. The mechanism
 * picks fresh nonces every time, so inputs reach the digest checks but never authenticate. Seeds:
 * {@code SaslNegotiationFuzzTestInputs/<method>/}.
 */
class SaslNegotiationFuzzTest {
  private static final List<QualityOfProtection> ALL_LEVELS =
      List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT, QualityOfProtection.AUTH);
  private static final MessageLayer SERVER = new SaslLayerProvider().messageLayer(
      SaslConfigs.base(SaslMechanism.DIGEST_MD5, ALL_LEVELS).delegationTokenSecrets(SaslConfigs.SECRETS).build(),
      Role.SERVER, TestIdentities.issuer()).orElseThrow();
  private static final MessageLayer CLIENT = new SaslLayerProvider().messageLayer(
      SaslConfigs.base(SaslMechanism.DIGEST_MD5, ALL_LEVELS).delegationToken(SaslConfigs.TOKEN).build(),
      Role.CLIENT, TestIdentities.issuer()).orElseThrow();
  private static final PeerIdentity PEER =
      TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress("127.0.0.1", 1)).build();

  /** Directive names and values of RFC 2831, which the JDK parses but Jazzer cannot see compared. */
  @FuzzTest(maxDuration = "60s")
  @DictionaryEntries({"DIGEST-MD5", "username=\"", "realm=\"", "nonce=\"", "cnonce=\"", "nc=00000001", "qop=",
      "auth-conf", "auth-int", "digest-uri=\"accumulo/localhost\"", "response=", "maxbuf=", "charset=utf-8",
      "cipher=", "3des", "rc4", "authzid=\"", "\\\"", "\","})
  void serverNegotiation(byte[] fromClient) {
    ParserOracle.expectOnlyWithinAllocation(fromClient.length,
        () -> SERVER.open(peerSending(fromClient), PEER, null).close(), TTransportException.class);
  }

  @FuzzTest(maxDuration = "60s")
  @DictionaryEntries({"realm=\"", "nonce=\"", "qop=\"auth,auth-int,auth-conf\"", "charset=utf-8",
      "algorithm=md5-sess", "cipher=\"3des,rc4\"", "maxbuf=", "rspauth=", "stale=true", "\\\"", "\","})
  void clientNegotiation(byte[] fromServer) {
    ParserOracle.expectOnlyWithinAllocation(fromServer.length,
        () -> CLIENT.open(peerSending(fromServer), PEER, SaslConfigs.HOST).close(), TTransportException.class);
  }

  /** A connection whose peer sends {@code bytes} and then closes; what we send is discarded. */
  private static TTransport peerSending(byte[] bytes) throws TTransportException {
    return new TIOStreamTransport(new ByteArrayInputStream(bytes), OutputStream.nullOutputStream());
  }
}
