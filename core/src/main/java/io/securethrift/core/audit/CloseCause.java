package io.securethrift.core.audit;

/**
 * Why a server closed an authenticated connection on its own account, not for anything its peer did: the
 * {@code cause} field of an {@code event=close} audit line and the key of {@link AuthCounters#closes(CloseCause)}.
 * Each has a stable token, the text the logs carry. (Closes for what a peer sent are {@link HandshakeAudit.Refusal}s.)
 */
public enum CloseCause {
  /**
   * The connection reached {@code securethrift.server.connection.max.age} and was closed at the next point no call was
   * in progress; its client reconnects and authenticates afresh.
   */
  MAX_AGE("max-age"),
  /**
   * The Kerberos service ticket the client authenticated with ended ({@code securethrift.sasl.kerberos.ticket.end}
   * {@code close}), and the connection was closed at the next point no call was in progress; its client reconnects
   * with a fresh ticket, or is refused if the KDC no longer issues it one.
   */
  TICKET_EXPIRED("ticket-expired");

  private final String token;

  CloseCause(String token) {
    this.token = token;
  }

  /** The text audit lines and counters show, such as {@code max-age}. */
  public String token() {
    return token;
  }

  @Override
  public String toString() {
    return token;
  }
}
