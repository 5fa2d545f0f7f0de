package io.securethrift.sasl;

import javax.security.sasl.SaslException;

/**
 * A Kerberos negotiation over TLS refused for its channel binding: the peer's is another TLS connection's, or the
 * peer sent none where {@code securethrift.sasl.channel.binding=require}. The audit's {@code channel-binding}.
 */
final class ChannelBindingException extends SaslException {
  private static final long serialVersionUID = 1L;

  ChannelBindingException(String reason) {
    super(reason);
  }
}
