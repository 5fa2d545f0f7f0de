package io.securethrift.core.spi;

import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.PeerText;
import java.io.IOException;
import java.util.Objects;

/**
 * A refused handshake that its layer has classified, so the server's audit line and counters name the right
 * {@link AuthFailure}. A layer throws it (a stream layer) or puts it in the cause chain of the exception it throws (a
 * message layer, whose {@code open} throws {@code TTransportException}); the first one in the chain counts.
 */
public final class HandshakeFailure extends IOException {
  private static final long serialVersionUID = 1L;

  private final AuthFailure reason;

  /**
   * @param reason why the handshake failed
   * @param message what happened, already escaped with {@link PeerText} where it quotes the peer
   *     (through {@code sanitize}, {@code describe} or {@code messageOf}): it is escaped once, so
   *     {@link PeerText#describe} and the audit quote it as it is
   * @param cause the underlying error, or null
   */
  public HandshakeFailure(AuthFailure reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public AuthFailure reason() {
    return reason;
  }

  /** The first classified failure along {@code e}'s cause chain, or null. */
  public static HandshakeFailure in(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HandshakeFailure) {
        return (HandshakeFailure) t;
      }
    }
    return null;
  }
}
