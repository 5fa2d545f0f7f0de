package io.securethrift.tls;

import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedMessage;
import java.io.IOException;

/**
 * Keeps the TLS engines' exception texts out of logs unescaped. They can carry what a peer sent, and BoringSSL's span
 * several lines of their own; they reach logs both in messages built from a cause chain and in the "Caused by" lines
 * libthrift's servers print. An exception whose chain is already safe is kept as it is, so its type still tells
 * callers what happened (a read timeout stays a {@code SocketTimeoutException}).
 */
final class EngineErrors {
  private EngineErrors() {}

  /** {@code e}, or a stand-in whose chain carries the same texts escaped with {@link PeerText}. */
  static IOException safe(IOException e) {
    return isSafe(e) ? e : new EngineError(e);
  }

  /** Whether every message in {@code t}'s chain is escaped already, or has nothing to escape. */
  private static boolean isSafe(Throwable t) {
    String message = t.getMessage();
    if (message != null && !PeerText.messageOf(t).equals(message)) {
      return false;
    }
    for (Throwable suppressed : t.getSuppressed()) {
      if (!isSafe(suppressed)) {
        return false;
      }
    }
    return t.getCause() == null || isSafe(t.getCause());
  }

  /**
   * An exception with its message escaped once (an original that is escaped already keeps its text), under the
   * original's class name and with its stack trace.
   */
  private static final class EngineError extends IOException implements EscapedMessage {
    private final String type;

    EngineError(Throwable original) {
      super(original.getMessage() == null ? null : PeerText.messageOf(original));
      this.type = original.getClass().getName();
      setStackTrace(original.getStackTrace());
      if (original.getCause() != null) {
        initCause(new EngineError(original.getCause()));
      }
      for (Throwable suppressed : original.getSuppressed()) {
        addSuppressed(new EngineError(suppressed));
      }
    }

    @Override
    public String toString() {
      return getMessage() == null ? type : type + ": " + getMessage();
    }
  }
}
