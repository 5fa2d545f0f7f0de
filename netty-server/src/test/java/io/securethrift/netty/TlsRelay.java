package io.securethrift.netty;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A man in the middle that holds a certificate the client trusts: it ends each client's TLS connection with that
 * certificate, opens a TLS connection of its own to the real server, and copies the bytes between the two unchanged,
 * which relays whatever the client authenticates with (its Kerberos AP-REQ) into the relay's own connection.
 */
final class TlsRelay implements AutoCloseable {
  private final SSLServerSocket listening;
  private final SSLContext toServer;
  private final int serverPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "tls-relay");
    t.setDaemon(true);
    return t;
  });

  /**
   * @param asServer the relay's own certificate, shown to clients
   * @param toServer what the relay dials the real server with (trusting its certificate)
   */
  TlsRelay(SSLContext asServer, SSLContext toServer, int serverPort) throws IOException {
    this.listening = (SSLServerSocket) asServer.getServerSocketFactory().createServerSocket(0, 16,
        InetAddress.getLoopbackAddress());
    this.toServer = toServer;
    this.serverPort = serverPort;
    threads.execute(this::acceptLoop);
  }

  int port() {
    return listening.getLocalPort();
  }

  private void acceptLoop() {
    while (!listening.isClosed()) {
      try {
        SSLSocket client = (SSLSocket) listening.accept();
        sockets.add(client);
        threads.execute(() -> relay(client));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void relay(SSLSocket client) {
    try {
      client.startHandshake();
      SSLSocket server = (SSLSocket) toServer.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
          serverPort);
      sockets.add(server);
      server.startHandshake();
      threads.execute(() -> copy(client, server));
      copy(server, client);
    } catch (IOException e) {
      closeQuietly(client);
    }
  }

  /** Copies until either side ends, then closes both, as a relay that only forwards would. */
  private static void copy(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException ended) {
      // Either side closed; both are closed below.
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing only.
    }
  }

  @Override
  public void close() throws IOException {
    listening.close();
    sockets.forEach(TlsRelay::closeQuietly);
    threads.shutdownNow();
  }
}
