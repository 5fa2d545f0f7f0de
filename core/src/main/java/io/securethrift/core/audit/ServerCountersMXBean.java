package io.securethrift.core.audit;

import io.securethrift.core.transport.ServerTransportFactory;
import java.util.Map;

/**
 * A listening server's connection and handshake counters as JMX shows them, under
 * {@code io.securethrift:type=Server,port=<port>} for as long as the server listens: registered by
 * {@link ServerTransportFactory#listen} (until its socket is closed) and by the non-blocking server's {@code start}
 * (until it shuts down). The handshake counts are {@link AuthCounters}'; a refusal at an admission limit counts as
 * {@code over-limit}.
 */
public interface ServerCountersMXBean {
  /** Connections that completed their handshake. */
  long getHandshakeSuccesses();

  /** Successes by protection: {@code none}, {@code TLSv1.3}, {@code GSSAPI/auth-conf}, ... */
  Map<String, Long> getHandshakeSuccessesByProtection();

  /** Refused connections, every cause together. */
  long getHandshakeFailures();

  /** Refusals by cause ({@link AuthFailure#token()}: {@code timeout}, {@code over-limit}, ...), every cause present. */
  Map<String, Long> getHandshakeFailuresByCause();

  /**
   * Authenticated connections the server closed on its own account, by cause ({@link CloseCause#token()}:
   * {@code max-age}), every cause present.
   */
  Map<String, Long> getConnectionsClosedByCause();

  /** Open connections; -1 where the server does not count them (the thread-pool server counts its threads). */
  int getOpenConnections();

  /** Open connections not yet authenticated; -1 where the server does not count them. */
  int getUnauthenticatedConnections();
}
