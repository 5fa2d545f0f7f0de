package io.securethrift.sasl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * A man in the middle for the Thrift SASL protocol: a real TCP relay on loopback that forwards each negotiation
 * message (status, 4-byte length, payload) through a rewrite of its payload, re-framed with the new length, keeps the
 * messages each side sent, and copies bytes unchanged once the server has sent COMPLETE or either side BAD or ERROR.
 * Payloads are rewritten as ISO-8859-1 text, which maps every byte to one character and back.
 */
final class RewritingRelay implements AutoCloseable {
  private static final int BAD = 3;
  private static final int ERROR = 4;
  private static final int COMPLETE = 5;

  private final ServerSocket listening;
  private final int target;
  private final UnaryOperator<String> toClient;
  private final UnaryOperator<String> toServer;
  private final List<String> fromServer = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "rewriting-relay");
    t.setDaemon(true);
    return t;
  });

  private RewritingRelay(int target, UnaryOperator<String> toClient, UnaryOperator<String> toServer)
      throws IOException {
    this.listening = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    this.target = target;
    this.toClient = toClient;
    this.toServer = toServer;
    threads.execute(this::acceptLoop);
  }

  /**
   * Relays to the server on {@code targetPort}, rewriting what the server sends with {@code toClient} and what the
   * client sends with {@code toServer}.
   */
  static RewritingRelay to(int targetPort, UnaryOperator<String> toClient, UnaryOperator<String> toServer)
      throws IOException {
    return new RewritingRelay(targetPort, toClient, toServer);
  }

  int port() {
    return listening.getLocalPort();
  }

  /** The negotiation messages servers sent through this relay, before rewriting, as {@code status:UTF-8 payload}. */
  List<String> serverMessages() {
    return fromServer;
  }

  private void acceptLoop() {
    try {
      while (true) {
        Socket client = listening.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
        sockets.add(client);
        sockets.add(server);
        AtomicBoolean negotiating = new AtomicBoolean(true);
        threads.execute(() -> pump(client, server, toServer, null, negotiating));
        threads.execute(() -> pump(server, client, toClient, fromServer, negotiating));
      }
    } catch (IOException closed) {
      // close() closed the listening socket.
    }
  }

  /** Forwards {@code from} to {@code to} until {@code from} ends, then ends {@code to}'s output too. */
  private static void pump(Socket from, Socket to, UnaryOperator<String> rewrite, List<String> record,
      AtomicBoolean negotiating) {
    try {
      DataInputStream in = new DataInputStream(from.getInputStream());
      DataOutputStream out = new DataOutputStream(to.getOutputStream());
      for (int status = in.read(); status >= 0; status = in.read()) {
        if (!negotiating.get()) {
          // Socket streams are unbuffered, so every chunk goes out as soon as it is read.
          out.write(status);
          in.transferTo(out);
          break;
        }
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        if (record != null) {
          record.add(status + ":" + new String(payload, StandardCharsets.UTF_8));
        }
        boolean serverDone = record != null && status == COMPLETE;
        if (serverDone || status == BAD || status == ERROR) {
          negotiating.set(false);
        }
        byte[] rewritten = rewrite.apply(new String(payload, StandardCharsets.ISO_8859_1))
            .getBytes(StandardCharsets.ISO_8859_1);
        out.write(status);
        out.writeInt(rewritten.length);
        out.write(rewritten);
        out.flush();
      }
    } catch (IOException connectionOver) {
      // One side closed or reset; the other side's output is ended below.
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException alreadyClosed) {
        // Nothing left to end.
      }
    }
  }

  @Override
  public void close() throws IOException {
    listening.close();
    for (Socket s : sockets) {
      s.close();
    }
    threads.shutdownNow();
  }
}
