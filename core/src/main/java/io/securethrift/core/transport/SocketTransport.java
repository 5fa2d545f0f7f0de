package io.securethrift.core.transport;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.Durations;
import io.securethrift.core.internal.EscapedMessage;
import io.securethrift.core.internal.PendingReplies;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * libthrift's socket transport over an already connected (and possibly TLS-layered) socket, closed by closing the
 * socket alone. {@link TSocket#close()} closes the input stream first, which on a TLS socket closes the whole socket,
 * and then fails (and logs a warning) flushing the output stream of the socket it has just closed.
 *
 * <p>Once the handshake is done ({@link #established}), a failed read or write says which peer and why (timed out,
 * closed, reset): libthrift's own message ("Socket is closed by peer.", "Read timed out") names neither the peer nor
 * the setting, and a client that talks to many servers cannot tell which one failed. During the handshake the
 * layers' own messages already name the peer, so failures pass through unchanged. The exception type and cause are
 * kept, so code that tells a closed connection from a timeout by {@link TTransportException#getType()} still can.
 */
final class SocketTransport extends TSocket {
  /** The TCP socket, under TLS if there is any: closing it ends a blocked write at once. */
  private final Socket tcp;
  /** The peer as {@code host:port}, once the handshake is done; null before. */
  private String peer;
  /** How long one write may block, once the handshake is done; null before (the handshake has its own deadline). */
  private Duration writeTimeout;
  /** Where a server counts its large replies while they are written; null on clients. */
  private PendingReplies replies;

  /** @param tcp the TCP socket under {@code socket} (the same socket without TLS) */
  SocketTransport(Socket socket, Socket tcp) throws TTransportException {
    super(socket);
    this.tcp = tcp;
  }

  /**
   * From here on, failures name {@code peer} ({@code host:port}, nothing else), and a write that blocks longer than
   * {@code writeTimeout} ({@code securethrift.timeout.read}: the peer gets as long to take bytes as to send them)
   * closes the connection; zero means no deadline.
   */
  void established(String peer, Duration writeTimeout, PendingReplies replies) {
    this.peer = peer;
    this.writeTimeout = writeTimeout.isZero() ? null : writeTimeout;
    this.replies = replies;
  }

  /**
   * Counts a reply of {@code bytes} in the server's pending replies until the returned one is closed; null on a
   * client, which counts nothing. Past the bound, the oldest reply's TCP socket is closed, which ends its blocked
   * write.
   */
  PendingReplies.Reply replying(long bytes) {
    return replies == null ? null : replies.add(tcp.getRemoteSocketAddress(), this::closeTcp, bytes);
  }

  private void closeTcp() {
    try {
      tcp.close();
    } catch (IOException ignored) {
      // Closing is the whole effect; the blocked writer sees the socket closed.
    }
  }

  /**
   * Whether bytes are received, or arrive within {@code nanos}, without taking any (the byte waited for stays for the
   * read that follows); also true when the peer closed or the socket failed, which that read then reports. False only
   * when the time passed with nothing received. A read timeout no longer than the wait is left to that read: bytes
   * that arrive within it arrive within the wait.
   */
  boolean receivesWithin(long nanos) {
    Socket socket = getSocket();
    try {
      if (!inputStream_.markSupported() || inputStream_.available() > 0) {
        return true;
      }
      if (nanos <= 0) {
        return false;
      }
      long waitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos));
      int readTimeout = socket.getSoTimeout();
      if (readTimeout != 0 && readTimeout <= waitMillis) {
        return true;
      }
      socket.setSoTimeout((int) waitMillis);
      try {
        inputStream_.mark(1);
        inputStream_.read();
        inputStream_.reset();
        return true;
      } catch (SocketTimeoutException e) {
        return false;
      } finally {
        restoreTimeout(socket, readTimeout);
      }
    } catch (IOException e) {
      return true;
    }
  }

  private static void restoreTimeout(Socket socket, int millis) {
    try {
      socket.setSoTimeout(millis);
    } catch (SocketException closed) {
      // A closed socket has no timeout to restore; the next read reports it closed.
    }
  }

  @Override
  public boolean isOpen() {
    return !getSocket().isClosed() && super.isOpen();
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    try {
      return super.read(buf, off, len);
    } catch (TTransportException e) {
      throw named(e, "reading from ");
    }
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    SocketDeadline deadline = writeTimeout == null ? null : SocketDeadline.arm(tcp, writeTimeout);
    try {
      super.write(buf, off, len);
    } catch (TTransportException e) {
      throw named(e, deadline, "writing to ");
    } finally {
      if (deadline != null) {
        deadline.close();
      }
    }
  }

  @Override
  public void flush() throws TTransportException {
    SocketDeadline deadline = writeTimeout == null ? null : SocketDeadline.arm(tcp, writeTimeout);
    try {
      super.flush();
    } catch (TTransportException e) {
      throw named(e, deadline, "writing to ");
    } finally {
      if (deadline != null) {
        deadline.close();
      }
    }
  }

  private TTransportException named(TTransportException e, SocketDeadline deadline, String doing) {
    if (deadline != null && deadline.expired()) {
      return new NamedFailure(TTransportException.TIMED_OUT, doing + peer + " failed: the peer took nothing for "
          + Durations.format(writeTimeout) + " (" + ConfigProperty.TIMEOUT_READ.key() + "), so the connection"
          + " was closed", e);
    }
    return named(e, doing);
  }

  private TTransportException named(TTransportException e, String doing) {
    if (peer == null) {
      return e;
    }
    return new NamedFailure(e.getType(), doing + peer + " failed: " + cause(e),
        e.getCause() != null ? e.getCause() : e);
  }

  /**
   * A failure that names its peer. It takes no stack trace of its own, since its cause carries the same one: every
   * server connection ends in a read that finds the peer gone, and a second trace filled there cost about 1 µs per
   * connection in a profile (perf), 1-2 % of the server's CPU for a plain connection.
   */
  private static final class NamedFailure extends TTransportException implements EscapedMessage {
    NamedFailure(int type, String message, Throwable cause) {
      super(type, message, cause);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  /** What went wrong, in the words an operator searches for; the JDK's text only where it says more. */
  private String cause(TTransportException e) {
    Throwable c = e.getCause();
    if (e.getType() == TTransportException.TIMED_OUT || c instanceof SocketTimeoutException) {
      return "timed out: nothing received within " + soTimeout() + " (" + ConfigProperty.TIMEOUT_READ.key() + ")";
    }
    if (e.getType() == TTransportException.END_OF_FILE) {
      return "connection closed by the peer";
    }
    String text = c == null ? "" : String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT);
    if (c instanceof SocketException && text.contains("reset")) {
      return "connection reset by the peer";
    }
    if (c instanceof SocketException && text.contains("broken pipe")) {
      return "connection closed by the peer (broken pipe)";
    }
    return PeerText.describe(c == null ? e : c);
  }

  private String soTimeout() {
    try {
      return Durations.format(Duration.ofMillis(getSocket().getSoTimeout()));
    } catch (SocketException closed) {
      return "the read timeout";
    }
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
