package io.securethrift.sasl;

import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions made safe to attach as causes: the JDK's mechanisms quote what the peer sent (a DIGEST-MD5 charset, realm
 * or digest-uri) in their exception messages. Their text for people is {@link PeerText#describe}.
 */
final class Describe {
  /** Longest cause chain copied; real ones are two or three deep. */
  private static final int MAX_CHAIN = 16;

  private Describe() {}

  /**
   * {@code e} and its causes as a cause to attach: the same class names and stack traces, each message sanitized.
   * libthrift's server logs the whole chain of a failed handshake, so a JDK exception cannot be attached as it is.
   */
  static Throwable loggable(Throwable e) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = e; t != null && chain.size() < MAX_CHAIN; t = t.getCause()) {
      chain.add(t);
    }
    Throwable copy = null;
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable original = chain.get(i);
      String message = original.getMessage() == null ? null : PeerText.messageOf(original);
      copy = new Sanitized(original.getClass().getName(), message, copy);
      copy.setStackTrace(original.getStackTrace());
    }
    return copy;
  }

  /** Prints as the original did, under its class name, with the message escaped once. */
  private static final class Sanitized extends Exception implements EscapedMessage {
    private static final long serialVersionUID = 1L;
    private final String type;

    Sanitized(String type, String message, Throwable cause) {
      super(message, cause);
      this.type = type;
    }

    @Override
    public String toString() {
      return getMessage() == null ? type : type + ": " + getMessage();
    }
  }
}
