package io.securethrift.sasl;

import io.securethrift.core.internal.EscapedMessage;
import org.apache.thrift.transport.TTransportException;

/**
 * The peer sent BAD or ERROR: it has given up and closes, so nothing is sent back. The message is libthrift's
 * {@code Peer indicated failure: <reason>}, which operators already search logs for.
 */
final class PeerFailure extends TTransportException implements EscapedMessage {
  private static final long serialVersionUID = 1L;

  /** @param reason the peer's reason, escaped with {@link io.securethrift.core.identity.PeerText#sanitize} */
  PeerFailure(String reason) {
    super(TTransportException.UNKNOWN, "Peer indicated failure: " + reason);
  }
}
