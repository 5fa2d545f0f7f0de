package io.securethrift.core.spi;

import java.io.IOException;
import java.net.Socket;
import java.util.Optional;

/**
 * The stream part of a security mode, for one role (client or server): plain TCP, or TLS. securethrift calls it on a
 * connected socket under the handshake deadline, on the connection's own thread.
 */
public interface StreamLayer extends AutoCloseable {
  /**
   * Secures a connected socket.
   *
   * @param socket connected TCP socket; closing it is the caller's job if this throws
   * @param host the host the client dialled, for hostname verification and SNI; null on servers
   */
  SecureStream open(Socket socket, String host) throws IOException;

  /**
   * This layer's TLS policy as {@link javax.net.ssl.SSLEngine}s, for servers that run TLS without a thread per
   * connection; empty for a layer that is not TLS.
   */
  default Optional<TlsEngines> engines() {
    return Optional.empty();
  }

  /** Releases what the layer holds (reload timers, cached contexts). */
  @Override
  default void close() {}
}
