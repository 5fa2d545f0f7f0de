package io.securethrift.core.transport;

import io.securethrift.core.internal.PortUnification;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;

/**
 * A connected TCP socket whose first byte was read to choose the connection's layers, and which gives that byte back:
 * its input stream replays it before the socket's own. Everything else is the TCP socket's, which the handshake
 * deadline closes.
 */
final class PeekedSocket extends Socket {
  private final Socket tcp;
  private final int firstByte;
  private final InputStream input;

  private PeekedSocket(Socket tcp, int firstByte) throws IOException {
    this.tcp = tcp;
    this.firstByte = firstByte;
    this.input = new SequenceInputStream(new ByteArrayInputStream(new byte[] {(byte) firstByte}),
        tcp.getInputStream());
  }

  /**
   * Reads the first byte of {@code tcp}, under its read timeout and the handshake deadline.
   *
   * @throws IOException a classified failure when the peer closes before sending a byte
   */
  static PeekedSocket peek(Socket tcp) throws IOException {
    int first = tcp.getInputStream().read();
    if (first < 0) {
      throw PortUnification.closedBeforeFirstByte();
    }
    return new PeekedSocket(tcp, first);
  }

  int firstByte() {
    return firstByte;
  }

  @Override
  public InputStream getInputStream() {
    return input;
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    return tcp.getOutputStream();
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

  @Override
  public void close() throws IOException {
    tcp.close();
  }
}
