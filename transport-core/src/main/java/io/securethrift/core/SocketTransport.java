package io.securethrift.core;

import java.io.IOException;
import java.net.Socket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * libthrift's socket transport over an already connected (and possibly TLS-layered) socket, closed by closing the
 * socket alone. {@link TSocket#close()} closes the input stream first, which on a TLS socket closes the whole socket,
 * and then fails (and logs a warning) flushing the output stream of the socket it has just closed.
 */
final class SocketTransport extends TSocket {
  SocketTransport(Socket socket) throws TTransportException {
    super(socket);
  }

  @Override
  public boolean isOpen() {
    return !getSocket().isClosed() && super.isOpen();
  }

  @Override
  public void close() {
    try {
      getSocket().close();
    } catch (IOException ignored) {
      // Nothing is left to release when closing fails.
    }
  }
}
