package io.securethrift.bench.peer;

import org.apache.thrift.transport.TTransport;

/** Opens client connections of one library for one mode, the way that library's users open them. */
interface Dialer extends AutoCloseable {
  /** A new connection to the echo server on {@code port}, handshake done, ready for a protocol. */
  TTransport open(int port) throws Exception;

  @Override
  default void close() {
    // Most dialers hold nothing between connections.
  }
}
