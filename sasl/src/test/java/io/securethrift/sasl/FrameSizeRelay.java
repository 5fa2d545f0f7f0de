package io.securethrift.sasl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay for one Thrift SASL connection that forwards every byte unchanged and records the length of
 * each data frame the server sends after its COMPLETE: what a peer that enforces its SASL max buffer would check.
 */
final class FrameSizeRelay implements AutoCloseable {
  private static final int BAD = 3;
  private static final int ERROR = 4;
  private static final int COMPLETE = 5;

  private final ServerSocket listening;
  private final List<Integer> serverFrames = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  FrameSizeRelay(int targetPort) throws IOException {
    this.listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(() -> relay(targetPort), "frame-size-relay");
    accept.setDaemon(true);
    accept.start();
  }

  int port() {
    return listening.getLocalPort();
  }

  /** Lengths of the server's data frames so far. */
  List<Integer> serverFrames() {
    return serverFrames;
  }

  private void relay(int targetPort) {
    try {
      Socket client = listening.accept();
      Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
      sockets.add(client);
      sockets.add(server);
      Thread up = new Thread(() -> copy(client, server), "frame-size-relay-up");
      up.setDaemon(true);
      up.start();
      parse(server.getInputStream(), client.getOutputStream());
    } catch (IOException closed) {
      // Either side closed: the relay's job is over.
    }
  }

  private static void copy(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException closed) {
      // Either side closed.
    }
  }

  private void parse(InputStream fromServer, OutputStream toClient) throws IOException {
    DataInputStream in = new DataInputStream(fromServer);
    DataOutputStream out = new DataOutputStream(toClient);
    int status;
    do {
      status = in.readUnsignedByte();
      byte[] payload = new byte[in.readInt()];
      in.readFully(payload);
      out.writeByte(status);
      out.writeInt(payload.length);
      out.write(payload);
      out.flush();
    } while (status != COMPLETE && status != BAD && status != ERROR);
    while (status == COMPLETE) {
      byte[] frame = new byte[in.readInt()];
      in.readFully(frame);
      serverFrames.add(frame.length);
      out.writeInt(frame.length);
      out.write(frame);
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    listening.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
