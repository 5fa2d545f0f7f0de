package io.securethrift.core.internal;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.CloseCause;
import io.securethrift.core.identity.PeerIdentity;
import java.time.Duration;
import java.time.Instant;

/**
 * When an authenticated server connection is to end, for both server models: the earlier of its maximum age
 * ({@code securethrift.server.connection.max.age}, counted from its accept) and the end of the Kerberos service ticket
 * its client authenticated with (recorded by the SASL layer under
 * {@code securethrift.server.kerberos.close.at.ticket.end}), with the cause the close is audited with. The server
 * model closes the connection at its first point without a call in progress once the end has passed.
 */
public final class ConnectionEnd {
  private static final Duration CLIENT_MARGIN_MAX = Duration.ofMinutes(1);

  private final long endNanos;
  private final CloseCause cause;

  private ConnectionEnd(long endNanos, CloseCause cause) {
    this.endNanos = endNanos;
    this.cause = cause;
  }

  /**
   * The end of {@code identity}'s connection, accepted at {@code acceptedNanos} ({@link System#nanoTime}); null when
   * it has neither a maximum age ({@code maxAge} zero) nor a ticket end.
   */
  public static ConnectionEnd of(PeerIdentity identity, long acceptedNanos, Duration maxAge) {
    Instant ticketEnd = SharedAccess.ticketEnd().of(identity).orElse(null);
    ConnectionEnd age = maxAge.isZero() ? null : new ConnectionEnd(acceptedNanos + maxAge.toNanos(),
        CloseCause.MAX_AGE);
    if (ticketEnd == null) {
      return age;
    }
    // The ticket's end is a wall-clock time; the count runs on the monotonic clock like the age's.
    long nowNanos = System.nanoTime();
    long untilEnd = Duration.between(Instant.now(), ticketEnd).toNanos();
    ConnectionEnd ticket = new ConnectionEnd(nowNanos + untilEnd, CloseCause.TICKET_EXPIRED);
    return age == null || ticket.endNanos - age.endNanos < 0 ? ticket : age;
  }

  /**
   * When a client stops sending calls on a connection authenticated with a Kerberos ticket valid from {@code start}
   * to {@code end}: a tenth of that span before the end, at most a minute, so that a call sent just before it
   * reaches the server before the server's close at the end, across a clock difference of up to that margin. The
   * client's next call opens a new connection, on a fresh ticket.
   */
  public static Instant clientRenewal(Instant start, Instant end) {
    Duration tenth = Duration.between(start, end).dividedBy(10);
    return end.minus(tenth.compareTo(CLIENT_MARGIN_MAX) < 0 ? tenth : CLIENT_MARGIN_MAX);
  }

  /** How long until the end, from {@code nowNanos}; zero or less once it has passed. */
  public long remainingNanos(long nowNanos) {
    return endNanos - nowNanos;
  }

  /** What the close is audited as: {@link CloseCause#MAX_AGE} or {@link CloseCause#TICKET_EXPIRED}. */
  public CloseCause cause() {
    return cause;
  }

  /** Why the connection closes, for the message of the close: the setting that made it end. */
  public String reason() {
    return cause == CloseCause.MAX_AGE ? ConfigProperty.SERVER_CONNECTION_MAX_AGE.key() + " reached"
        : "the client's Kerberos service ticket ended ("
            + ConfigProperty.SERVER_KERBEROS_CLOSE_AT_TICKET_END.key() + ")";
  }
}
