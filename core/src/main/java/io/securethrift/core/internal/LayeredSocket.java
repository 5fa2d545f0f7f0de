package io.securethrift.core.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;

/**
 * A socket over a connected TCP socket that changes what its streams carry (TLS records opened, a peeked byte given
 * back) and nothing else: options, addresses, state and closing are the TCP socket's, which the handshake and write
 * deadlines close. Subclasses supply the streams.
 */
public abstract class LayeredSocket extends Socket {
  private final Socket tcp;

  protected LayeredSocket(Socket tcp) {
    this.tcp = tcp;
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    tcp.setSoTimeout(timeout);
  }

  @Override
  public int getSoTimeout() throws SocketException {
    return tcp.getSoTimeout();
  }

  @Override
  public void setTcpNoDelay(boolean on) throws SocketException {
    tcp.setTcpNoDelay(on);
  }

  @Override
  public void setKeepAlive(boolean on) throws SocketException {
    tcp.setKeepAlive(on);
  }

  @Override
  public void setSoLinger(boolean on, int linger) throws SocketException {
    tcp.setSoLinger(on, linger);
  }

  @Override
  public boolean isConnected() {
    return tcp.isConnected();
  }

  @Override
  public boolean isClosed() {
    return tcp.isClosed();
  }

  @Override
  public InetAddress getInetAddress() {
    return tcp.getInetAddress();
  }

  @Override
  public int getPort() {
    return tcp.getPort();
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return tcp.getRemoteSocketAddress();
  }

  @Override
  public SocketAddress getLocalSocketAddress() {
    return tcp.getLocalSocketAddress();
  }

  /** Closes the TCP socket; a layer with something to send first (a TLS close_notify) sends it, then calls this. */
  @Override
  public void close() throws IOException {
    tcp.close();
  }
}
