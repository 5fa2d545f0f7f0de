package io.securethrift.sasl;

import io.securethrift.core.internal.ConnectionEnd;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;

/**
 * A GSSAPI client's service tickets for one server, as the JDK keeps them in the client's subject: their end is when
 * the server closes connections made with them, so the client renews its connection shortly before
 * ({@link ConnectionEnd#clientRenewal}), and a ticket that close to its end is dropped before a connection starts, so
 * the JDK asks the KDC for a fresh one rather than start the new connection on the ending ticket.
 */
final class ClientServiceTickets {
  private ClientServiceTickets() {}

  /** Drops the subject's tickets for {@code primary/host} whose renewal time has come (a read-only subject's stay). */
  static void dropEnding(Subject subject, String primary, String host) {
    Instant now = Instant.now();
    for (KerberosTicket ticket : subject.getPrivateCredentials(KerberosTicket.class)) {
      if (isFor(ticket, primary, host) && ticket.getEndTime() != null && !now.isBefore(renewal(ticket))) {
        try {
          subject.getPrivateCredentials().remove(ticket);
        } catch (IllegalStateException readOnly) {
          // The caller's own subject, made read-only: its tickets are the caller's to manage.
        }
      }
    }
  }

  /** When the subject's current ticket for {@code primary/host} ends, the latest if it holds several. */
  static Optional<Instant> end(Subject subject, String primary, String host) {
    Instant latest = null;
    for (KerberosTicket ticket : subject.getPrivateCredentials(KerberosTicket.class)) {
      if (isFor(ticket, primary, host) && ticket.isCurrent() && ticket.getEndTime() != null) {
        Instant end = ticket.getEndTime().toInstant();
        latest = latest == null || end.isAfter(latest) ? end : latest;
      }
    }
    return Optional.ofNullable(latest);
  }

  private static Instant renewal(KerberosTicket ticket) {
    Instant end = ticket.getEndTime().toInstant();
    Instant start = ticket.getStartTime() != null ? ticket.getStartTime().toInstant()
        : ticket.getAuthTime() != null ? ticket.getAuthTime().toInstant() : end;
    return ConnectionEnd.clientRenewal(start, end);
  }

  /** Whether the ticket is for {@code primary/host} in any realm; host names compare without case. */
  private static boolean isFor(KerberosTicket ticket, String primary, String host) {
    String server = ticket.getServer().getName();
    int at = server.lastIndexOf('@');
    String name = at < 0 ? server : server.substring(0, at);
    return name.toLowerCase(Locale.ROOT).equals((primary + "/" + host).toLowerCase(Locale.ROOT));
  }
}
