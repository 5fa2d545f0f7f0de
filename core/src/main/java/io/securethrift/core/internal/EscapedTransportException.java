package io.securethrift.core.internal;

import org.apache.thrift.transport.TTransportException;

/**
 * A {@link TTransportException} whose message is already escaped ({@link EscapedMessage}): built from
 * {@link io.securethrift.core.identity.PeerText#describe}, {@link io.securethrift.core.identity.PeerText#messageOf} or
 * {@link io.securethrift.core.identity.PeerText#sanitize} of whatever a peer influenced.
 */
public final class EscapedTransportException extends TTransportException implements EscapedMessage {
  private static final long serialVersionUID = 1L;

  public EscapedTransportException(int type, String message) {
    super(type, message);
  }

  public EscapedTransportException(int type, String message, Throwable cause) {
    super(type, message, cause);
  }
}
