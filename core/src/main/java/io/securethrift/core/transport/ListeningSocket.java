package io.securethrift.core.transport;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.internal.ConnectionRate;
import io.securethrift.core.internal.ServerCountersJmx;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The listening socket {@link ServerTransportFactory#listen} returns. It hands each accepted connection to the server
 * loop as the {@link SocketTransport} the handshake goes on with, rather than as libthrift's {@code TSocket}: that one
 * the handshake would replace, so its two 8 KiB buffers and its three socket options would be spent on every
 * connection for nothing.
 *
 * <p>Connections over the connection rate limits ({@link ConnectionRate}) are closed here, on the accept thread, before
 * a worker takes them or a byte is read, and audited as {@code over-limit}; the server loop never sees them.
 */
final class ListeningSocket extends TServerSocket {
  /** The server's counters in JMX while it listens. */
  private final ServerCountersJmx jmx;
  private final HandshakeAudit audit;
  /** Null when both rate limits are off. */
  private final ConnectionRate rate;
  private final int ipv6Prefix;
  /** The first layer a connection meets, which a refusal is counted under. */
  private final HandshakeAudit.Stage stage;

  ListeningSocket(ServerSocket socket, ServerTransportFactory factory, ServerLimits limits, HandshakeAudit.Stage stage)
      throws TTransportException {
    super(socket);
    this.audit = factory.audit();
    this.rate = ConnectionRate.of(limits);
    this.ipv6Prefix = limits.ipv6Prefix();
    this.stage = stage;
    this.jmx = ServerCountersJmx.register(factory, socket.getLocalPort());
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
    while (true) {
      Socket accepted;
      try {
        accepted = listening.accept();
      } catch (IOException e) {
        throw new TTransportException(e);
      }
      if (admitted(accepted)) {
        return new SocketTransport(accepted, accepted);
      }
    }
  }

  /** Whether the rate limits admit {@code accepted}; if not, it is closed and audited. */
  private boolean admitted(Socket accepted) {
    if (rate == null) {
      return true;
    }
    ConfigProperty over = rate.admit(ConnectionRate.group(accepted.getInetAddress(), ipv6Prefix));
    if (over == null) {
      return true;
    }
    try {
      accepted.close();
    } catch (IOException e) {
      // Closing a socket nothing was read from or written to: there is nothing more to do for it.
    }
    audit.failed(accepted.getRemoteSocketAddress(), stage, ConnectionRate.refusal(over), Duration.ZERO);
    return false;
  }
}
