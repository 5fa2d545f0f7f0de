package io.securethrift.tls;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import javax.net.ssl.SSLSocket;

/**
 * The socket core reads and writes after a handshake; only the methods Thrift's socket transport uses are
 * delegated. It has two jobs:
 *
 * <ul>
 *   <li>Exceptions from the engine leave it through {@link EngineErrors}: in TLS 1.3 a server's rejection of the
 *       client's certificate reaches the client at its first read, as the engine's text.
 *   <li>On a Conscrypt server the first application write is split after {@value #FIRST_CHUNK} bytes. A Conscrypt
 *       2.9.0 TLS 1.3 server sends its session tickets with the first write; when that write fills a whole 16 KiB
 *       record, ticket plus record overflow the engine's packet buffer and the write fails with "Unexpected engine
 *       result BUFFER_OVERFLOW" (google/conscrypt#1049). A small first record leaves room for the tickets; every later
 *       write goes through unchanged, in full-size records.
 * </ul>
 */
final class TlsSocket extends java.net.Socket {
  private static final int FIRST_CHUNK = 4096;

  private final SSLSocket delegate;
  private final InputStream input;
  private final OutputStream output;

  TlsSocket(SSLSocket delegate, boolean splitFirstWrite) throws IOException {
    this.delegate = delegate;
    this.input = new FilterInputStream(delegate.getInputStream()) {
      @Override
      public int read() throws IOException {
        try {
          return in.read();
        } catch (IOException e) {
          throw EngineErrors.safe(e);
        }
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return in.read(b, off, len);
        } catch (IOException e) {
          throw EngineErrors.safe(e);
        }
      }
    };
    this.output = new FilterOutputStream(delegate.getOutputStream()) {
      private boolean first = splitFirstWrite;

      @Override
      public void write(int b) throws IOException {
        try {
          out.write(b);
        } catch (IOException e) {
          throw EngineErrors.safe(e);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        try {
          if (first && len > FIRST_CHUNK) {
            first = false;
            out.write(b, off, FIRST_CHUNK);
            out.write(b, off + FIRST_CHUNK, len - FIRST_CHUNK);
            return;
          }
          first = false;
          out.write(b, off, len);
        } catch (IOException e) {
          throw EngineErrors.safe(e);
        }
      }

      @Override
      public void flush() throws IOException {
        try {
          out.flush();
        } catch (IOException e) {
          throw EngineErrors.safe(e);
        }
      }
    };
  }

  @Override
  public InputStream getInputStream() {
    return input;
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
