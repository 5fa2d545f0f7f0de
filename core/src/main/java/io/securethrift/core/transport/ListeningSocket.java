package io.securethrift.core.transport;

import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.internal.ServerCountersJmx;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The listening socket {@link ServerTransportFactory#listen} returns. It hands each accepted connection to the server
 * loop as the {@link SocketTransport} the handshake goes on with, rather than as libthrift's {@code TSocket}: that one
 * the handshake would replace, so its two 8 KiB buffers and its three socket options would be spent on every
 * connection for nothing.
 */
final class ListeningSocket extends TServerSocket {
  /** The server's counters in JMX while it listens. */
  private final ServerCountersJmx jmx;

  ListeningSocket(ServerSocket socket, AuthCounters counters) throws TTransportException {
    super(socket);
    this.jmx = ServerCountersJmx.register(counters, socket.getLocalPort());
  }

  @Override
  public void close() {
    jmx.close();
    super.close();
  }

  /** Waits for the next connection; the transport sets no-delay, keep-alive and no linger, as libthrift's does. */
  @Override
  public TSocket accept() throws TTransportException {
    ServerSocket listening = getServerSocket();
    if (listening == null) {
      throw new TTransportException(TTransportException.NOT_OPEN, "the listening socket is closed");
    }
    Socket accepted;
    try {
      accepted = listening.accept();
    } catch (IOException e) {
      throw new TTransportException(e);
    }
    return new SocketTransport(accepted, accepted);
  }
}
