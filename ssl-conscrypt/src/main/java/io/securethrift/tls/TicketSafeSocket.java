package io.securethrift.tls;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import javax.net.ssl.SSLSocket;

/**
 * A Conscrypt server socket whose first application write is split after {@value #FIRST_CHUNK} bytes. A Conscrypt
 * 2.9.0 TLS 1.3 server sends its session tickets with the first write; when that write fills a whole 16 KiB record,
 * ticket plus record overflow the engine's packet buffer and the write fails with "Unexpected engine result
 * BUFFER_OVERFLOW" (google/conscrypt#1049). A small first record leaves room for the tickets; every later write goes
 * through unchanged, in full-size records. Only the methods Thrift's socket transport uses are delegated.
 */
final class TicketSafeSocket extends java.net.Socket {
  private static final int FIRST_CHUNK = 4096;

  private final SSLSocket delegate;
  private final OutputStream output;

  TicketSafeSocket(SSLSocket delegate) throws IOException {
    this.delegate = delegate;
    this.output = new FilterOutputStream(delegate.getOutputStream()) {
      private boolean first = true;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        if (first && len > FIRST_CHUNK) {
          first = false;
          out.write(b, off, FIRST_CHUNK);
          out.write(b, off + FIRST_CHUNK, len - FIRST_CHUNK);
          return;
        }
        first = false;
        out.write(b, off, len);
      }
    };
  }

  @Override
  public InputStream getInputStream() throws IOException {
    return delegate.getInputStream();
  }

  @Override
  public OutputStream getOutputStream() {
    return output;
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    delegate.setSoTimeout(timeout);
  }

  @Override
  public int getSoTimeout() throws SocketException {
    return delegate.getSoTimeout();
  }

  @Override
  public void setTcpNoDelay(boolean on) throws SocketException {
    delegate.setTcpNoDelay(on);
  }

  @Override
  public void setKeepAlive(boolean on) throws SocketException {
    delegate.setKeepAlive(on);
  }

  @Override
  public void setSoLinger(boolean on, int linger) throws SocketException {
    delegate.setSoLinger(on, linger);
  }

  @Override
  public boolean isConnected() {
    return delegate.isConnected();
  }

  @Override
  public boolean isClosed() {
    return delegate.isClosed();
  }

  @Override
  public InetAddress getInetAddress() {
    return delegate.getInetAddress();
  }

  @Override
  public int getPort() {
    return delegate.getPort();
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return delegate.getRemoteSocketAddress();
  }

  @Override
  public SocketAddress getLocalSocketAddress() {
    return delegate.getLocalSocketAddress();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
