package io.securethrift.core.transport;

import io.securethrift.core.internal.ConnectionEnd;
import java.time.Duration;

/**
 * A thread-pool server connection's end ({@link ConnectionEnd}: its maximum age or its client's Kerberos ticket end),
 * kept by the worker that serves it: between two calls it waits for the next one at most until the end, and a
 * connection that has reached it with no byte of a next call received is closed there. The worker itself decides, so
 * a call it has begun to read is never cut; bytes of a call already received count as a call in progress, served
 * before the close.
 */
final class ConnectionAge {
  private final SocketTransport socket;
  private final long acceptedNanos;
  private final ConnectionEnd end;

  private ConnectionAge(SocketTransport socket, long acceptedNanos, ConnectionEnd end) {
    this.socket = socket;
    this.acceptedNanos = acceptedNanos;
    this.end = end;
  }

  /** The end of a connection accepted at {@code acceptedNanos} ({@link System#nanoTime}); null when there is none. */
  static ConnectionAge of(SocketTransport socket, long acceptedNanos, ConnectionEnd end) {
    return end == null ? null : new ConnectionAge(socket, acceptedNanos, end);
  }

  /**
   * Between calls: whether a next call has begun to arrive (or the peer closed, for the read that follows to report)
   * before the connection reached its end; false when the end passed with nothing received, and the connection is
   * to close.
   */
  boolean nextCallArrives() {
    return socket.receivesWithin(end.remainingNanos(System.nanoTime()));
  }

  /** Why the connection ends. */
  ConnectionEnd end() {
    return end;
  }

  /** How long the connection has been open. */
  Duration age() {
    return Duration.ofNanos(System.nanoTime() - acceptedNanos);
  }
}
