package io.securethrift.netty;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A man in the middle that holds a certificate the client trusts: it ends each client's TLS connection with that
 * certificate, opens a TLS connection of its own to the real server, and copies the bytes between the two unchanged,
 * which relays whatever the client authenticates with (its Kerberos AP-REQ) into the relay's own connection. Given
 * rewrites, it passes every Thrift SASL negotiation message (status, 4-byte length, payload) through them instead,
 * as a relay that also tampers with the negotiation would; that reading ends with the negotiation, so it suits only
 * connections the tampering makes fail.
 */
final class TlsRelay implements AutoCloseable {
  private final SSLServerSocket listening;
  private final SSLContext dialing;
  private final int serverPort;
  private final UnaryOperator<byte[]> toClient;
  private final UnaryOperator<byte[]> toServer;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "tls-relay");
    t.setDaemon(true);
    return t;
  });

  /**
   * @param asServer the relay's own certificate, shown to clients
   * @param dialing what the relay dials the real server with (trusting its certificate)
   */
  TlsRelay(SSLContext asServer, SSLContext dialing, int serverPort) throws IOException {
    this(asServer, dialing, serverPort, null, null);
  }

  /**
   * @param toClient rewrites the payload of each negotiation message from the server; null copies bytes unchanged
   * @param toServer the same for messages from the client
   */
  TlsRelay(SSLContext asServer, SSLContext dialing, int serverPort, UnaryOperator<byte[]> toClient,
      UnaryOperator<byte[]> toServer) throws IOException {
    this.listening = (SSLServerSocket) asServer.getServerSocketFactory().createServerSocket(0, 16,
        InetAddress.getLoopbackAddress());
    this.dialing = dialing;
    this.serverPort = serverPort;
    this.toClient = toClient;
    this.toServer = toServer;
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
      SSLSocket server = (SSLSocket) dialing.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
          serverPort);
      sockets.add(server);
      server.startHandshake();
      threads.execute(() -> copy(client, server, toServer));
      copy(server, client, toClient);
    } catch (IOException e) {
      closeQuietly(client);
    }
  }

  /** Copies, through {@code rewrite} if there is one, until either side ends, then closes both. */
  private static void copy(Socket from, Socket to, UnaryOperator<byte[]> rewrite) {
    try {
      if (rewrite == null) {
        from.getInputStream().transferTo(new Flushing(to.getOutputStream()));
        return;
      }
      DataInputStream in = new DataInputStream(from.getInputStream());
      DataOutputStream out = new DataOutputStream(to.getOutputStream());
      while (true) {
        int status = in.readUnsignedByte();
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        byte[] rewritten = rewrite.apply(payload);
        out.writeByte(status);
        out.writeInt(rewritten.length);
        out.write(rewritten);
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

  /** Flushes every write, so each TLS record goes out as soon as the relay has it. */
  private static final class Flushing extends FilterOutputStream {
    Flushing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    listening.close();
    sockets.forEach(TlsRelay::closeQuietly);
    threads.shutdownNow();
  }
}
