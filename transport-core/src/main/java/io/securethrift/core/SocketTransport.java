package io.securethrift.core;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;
import io.securethrift.core.internal.EscapedMessage;
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
  /** The peer as {@code host:port}, once the handshake is done; null before. */
  private String peer;

  SocketTransport(Socket socket) throws TTransportException {
    super(socket);
  }

  /** From here on, failures name {@code peer} ({@code host:port}, nothing else). */
  void established(String peer) {
    this.peer = peer;
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
    try {
      super.write(buf, off, len);
    } catch (TTransportException e) {
      throw named(e, "writing to ");
    }
  }

  @Override
  public void flush() throws TTransportException {
    try {
      super.flush();
    } catch (TTransportException e) {
      throw named(e, "writing to ");
    }
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
      return Values.formatDuration(Duration.ofMillis(getSocket().getSoTimeout()));
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
