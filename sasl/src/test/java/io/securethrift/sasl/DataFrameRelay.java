package io.securethrift.sasl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A man in the middle for the data phase of Thrift SASL connections: a real TCP relay on loopback that forwards the
 * negotiation unchanged, then cuts each direction into data frames (4-byte length, payload) and passes every frame
 * through a {@link Tamper}, re-framing what it returns with the new lengths. It records the lengths of the frames each
 * side sent. Each accepted connection gets its own server connection and its own frame numbering.
 */
final class DataFrameRelay implements AutoCloseable {
  private static final int BAD = 3;
  private static final int ERROR = 4;
  private static final int COMPLETE = 5;

  /** What to do with one data frame: the frames to send instead (none drops it), or null to close both sides. */
  @FunctionalInterface
  interface Tamper {
    List<byte[]> apply(int connection, int index, byte[] payload);

    Tamper NONE = (connection, index, payload) -> List.of(payload);
  }

  private final ServerSocket listening;
  private final int target;
  private final Tamper toServer;
  private final Tamper toClient;
  private final List<Integer> clientFrames = new CopyOnWriteArrayList<>();
  private final List<Integer> serverFrames = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "data-frame-relay");
    t.setDaemon(true);
    return t;
  });
  private int connections;

  DataFrameRelay(int targetPort, Tamper toServer, Tamper toClient) throws IOException {
    this.listening = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    this.target = targetPort;
    this.toServer = toServer;
    this.toClient = toClient;
    threads.execute(this::acceptLoop);
  }

  int port() {
    return listening.getLocalPort();
  }

  /** Lengths of the data frames clients sent, before tampering, in order. */
  List<Integer> clientFrames() {
    return clientFrames;
  }

  /** Lengths of the data frames servers sent, before tampering, in order. */
  List<Integer> serverFrames() {
    return serverFrames;
  }

  private void acceptLoop() {
    try {
      while (true) {
        Socket client = listening.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
        sockets.add(client);
        sockets.add(server);
        int connection = connections++;
        AtomicBoolean negotiating = new AtomicBoolean(true);
        threads.execute(() -> pump(connection, client, server, toServer, clientFrames, negotiating, false));
        threads.execute(() -> pump(connection, server, client, toClient, serverFrames, negotiating, true));
      }
    } catch (IOException closed) {
      // close() closed the listening socket.
    }
  }

  /** Forwards {@code from} to {@code to} until either ends, then closes both. */
  private static void pump(int connection, Socket from, Socket to, Tamper tamper, List<Integer> lengths,
      AtomicBoolean negotiating, boolean fromServer) {
    try {
      DataInputStream in = new DataInputStream(from.getInputStream());
      DataOutputStream out = new DataOutputStream(to.getOutputStream());
      int index = 0;
      for (int first = in.read(); first >= 0; first = in.read()) {
        if (negotiating.get()) {
          byte[] payload = new byte[in.readInt()];
          in.readFully(payload);
          if ((fromServer && first == COMPLETE) || first == BAD || first == ERROR) {
            negotiating.set(false);
          }
          out.write(first);
          out.writeInt(payload.length);
          out.write(payload);
          out.flush();
          continue;
        }
        int length = first << 24 | in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
        byte[] payload = new byte[length];
        in.readFully(payload);
        lengths.add(length);
        List<byte[]> replacement = tamper.apply(connection, index++, payload);
        if (replacement == null) {
          break;
        }
        for (byte[] frame : replacement) {
          out.writeInt(frame.length);
          out.write(frame);
        }
        out.flush();
      }
    } catch (IOException connectionOver) {
      // One side closed or reset; both are closed below.
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException alreadyClosed) {
      // Nothing left to close.
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
