package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import java.util.Map;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * A JDK DIGEST-MD5 client and server negotiated directly against each other in memory, with the callbacks and the
 * delegation token the library uses: the two ends of a real data phase without sockets or threads. Each pair has
 * its own keys and sequence numbers, so a test that needs a clean state makes a new one (it costs well under a
 * millisecond).
 */
final class DigestPair {
  private static final String MECHANISM = MechanismSupport.DIGEST_MD5.name();

  final SaslEndpoint client;
  final SaslEndpoint server;

  private DigestPair(SaslEndpoint client, SaslEndpoint server) {
    this.client = client;
    this.server = server;
  }

  static DigestPair negotiate(QualityOfProtection qop) throws SaslException {
    Map<String, String> properties = Map.of(Sasl.QOP, qop.token());
    SaslServer server = MechanismSupport.DIGEST_MD5.serverFactory().createSaslServer(MECHANISM, "accumulo",
        SaslConfigs.HOST, properties, new ServerCallbacks(SaslConfigs.SECRETS));
    SaslClient client = MechanismSupport.DIGEST_MD5.clientFactory().createSaslClient(new String[] {MECHANISM}, null,
        "accumulo", SaslConfigs.HOST, properties, new DigestClientCallbacks(SaslConfigs.TOKEN));
    byte[] challenge = server.evaluateResponse(new byte[0]);
    while (!client.isComplete() || !server.isComplete()) {
      byte[] response = client.evaluateChallenge(challenge);
      challenge = server.isComplete() ? new byte[0] : server.evaluateResponse(response);
    }
    return new DigestPair(SaslEndpoint.client(client, null), SaslEndpoint.server(server, null));
  }
}
