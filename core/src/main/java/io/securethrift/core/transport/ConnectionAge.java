package io.securethrift.core.transport;

import java.time.Duration;

/**
 * A thread-pool server connection's maximum age ({@code securethrift.server.connection.max.age}), kept by the worker
 * that serves it: between two calls it waits for the next one at most until the age has passed, and a connection that
 * has reached it with no byte of a next call received is closed there. The worker itself decides, so a call it has
 * begun to read is never cut; bytes of a call already received count as a call in progress, served before the close.
 */
final class ConnectionAge {
  private final SocketTransport socket;
  private final long acceptedNanos;
  private final long maxAgeNanos;

  private ConnectionAge(SocketTransport socket, long acceptedNanos, Duration maxAge) {
    this.socket = socket;
    this.acceptedNanos = acceptedNanos;
    this.maxAgeNanos = maxAge.toNanos();
  }

  /** The limit of a connection accepted at {@code acceptedNanos} ({@link System#nanoTime}); null when there is none. */
  static ConnectionAge of(SocketTransport socket, long acceptedNanos, Duration maxAge) {
    return maxAge.isZero() ? null : new ConnectionAge(socket, acceptedNanos, maxAge);
  }

  /**
   * Between calls: whether a next call has begun to arrive (or the peer closed, for the read that follows to report)
   * before the connection reached its age; false when the age passed with nothing received, and the connection is
   * to close.
   */
  boolean nextCallArrives() {
    return socket.receivesWithin(maxAgeNanos - (System.nanoTime() - acceptedNanos));
  }

  /** How long the connection has been open. */
  Duration age() {
    return Duration.ofNanos(System.nanoTime() - acceptedNanos);
  }
}
