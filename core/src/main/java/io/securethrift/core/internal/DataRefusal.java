package io.securethrift.core.internal;

import org.apache.thrift.transport.TTransportException;

/**
 * A connection its reader closed for what the peer sent (a frame over the limit, a length its frame does not hold, a
 * frame that failed its check). Its type is END_OF_FILE, which is what the connection now is, so a Thrift server loop
 * ends it without logging; the server's identity processor, which runs every call, logs {@link #reason()} once
 * through the server's rate-limited warning ({@code HandshakeAudit.closing}).
 */
public final class DataRefusal extends TTransportException implements EscapedMessage {
  private static final long serialVersionUID = 1L;

  private final String reason;

  /** @param reason why, already escaped where it quotes the peer */
  public DataRefusal(String peer, String reason) {
    super(TTransportException.END_OF_FILE, "closed the connection with " + peer + ": " + reason);
    this.reason = reason;
  }

  public String reason() {
    return reason;
  }
}
