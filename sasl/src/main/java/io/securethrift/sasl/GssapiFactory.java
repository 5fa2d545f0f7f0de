package io.securethrift.sasl;

import java.util.Map;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslClientFactory;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;

/**
 * Creates {@link GssapiClient} and {@link GssapiServer}: what {@link SecureThriftSaslProvider} answers
 * {@code Sasl.createSaslClient} and {@code Sasl.createSaslServer} with, and what securethrift's own transports use.
 * Stateless and thread-safe.
 */
final class GssapiFactory implements SaslClientFactory, SaslServerFactory {
  static final GssapiFactory INSTANCE = new GssapiFactory();
  private static final String[] NAMES = {GssapiMechanism.NAME};
  /** Policies this mechanism cannot promise: forward secrecy (only AES-GCM has it) and passing credentials. */
  private static final String[] UNMET = {Sasl.POLICY_FORWARD_SECRECY, Sasl.POLICY_PASS_CREDENTIALS};

  private GssapiFactory() {}

  @Override
  public SaslClient createSaslClient(String[] mechanisms, String authorizationId, String protocol,
      String serverName, Map<String, ?> props, CallbackHandler cbh) throws SaslException {
    for (String mechanism : mechanisms) {
      if (GssapiMechanism.NAME.equals(mechanism) && meets(props)) {
        return new GssapiClient(authorizationId, protocol, serverName, props);
      }
    }
    return null;
  }

  @Override
  public SaslServer createSaslServer(String mechanism, String protocol, String serverName, Map<String, ?> props,
      CallbackHandler cbh) throws SaslException {
    return GssapiMechanism.NAME.equals(mechanism) && meets(props)
        ? new GssapiServer(protocol, serverName, props, cbh) : null;
  }

  @Override
  public String[] getMechanismNames(Map<String, ?> props) {
    return meets(props) ? NAMES.clone() : new String[0];
  }

  private static boolean meets(Map<String, ?> props) {
    if (props != null) {
      for (String policy : UNMET) {
        if ("true".equalsIgnoreCase(String.valueOf(props.get(policy)))) {
          return false;
        }
      }
    }
    return true;
  }
}
