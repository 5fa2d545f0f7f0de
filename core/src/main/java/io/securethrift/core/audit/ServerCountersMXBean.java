package io.securethrift.core.audit;

import io.securethrift.core.transport.ServerTransportFactory;
import java.util.Map;

/**
 * A listening server's connection and handshake counters as JMX shows them, under
 * {@code io.securethrift:type=Server,port=<port>} for as long as the server listens: registered by
 * {@link ServerTransportFactory#listen} (until its socket is closed) and by the non-blocking server's {@code start}
 * (until it shuts down). The handshake counts are {@link AuthCounters}'; a refusal at an admission limit counts as
 * {@code over-limit}. On a unified port it also holds the switch that turns plaintext off.
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
   * {@code max-age}, {@code ticket-expired}), every cause present.
   */
  Map<String, Long> getConnectionsClosedByCause();

  /**
   * Plaintext connections a unified TLS port served ({@code securethrift.server.port.unification}), each audited with
   * cause {@code plaintext}; refused ones are among the failures under the same cause.
   */
  long getPlaintextConnections();

  /** Whether the port serves plaintext connections now; false on a port without port unification. */
  boolean isPlaintextAccepted();

  /**
   * Switches a unified port's plaintext on or off while it runs: set false once {@link #getPlaintextConnections()}
   * stops growing and the port is TLS only, without a restart; connections already open carry on. Refused (an
   * {@link IllegalStateException}) on a port started without port unification.
   */
  void setPlaintextAccepted(boolean accepted);

  /** Open connections; -1 where the server does not count them (the thread-pool server counts its threads). */
  int getOpenConnections();

  /** Open connections not yet authenticated; -1 where the server does not count them. */
  int getUnauthenticatedConnections();
}
