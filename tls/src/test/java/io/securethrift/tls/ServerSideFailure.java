package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * Runs one misbehaving client against the exact server path a {@code TThreadPoolServer} worker takes (the factory's
 * {@code getTransport} on an accepted socket) and returns the server's error text, lower-cased. The server's message
 * is the one an operator reads; a client rejected late in TLS 1.3 may only see a broken pipe.
 */
final class ServerSideFailure {
  /** What the misbehaving client does, given the port to connect to. */
  interface ClientAction {
    void run(int port) throws Exception;
  }

  /** A client that connects, writes {@code bytes} and waits for the server to close. */
  static ClientAction raw(byte[] bytes) {
    return port -> {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        socket.getOutputStream().write(bytes);
        socket.getInputStream().read();
      }
    };
  }

  private ServerSideFailure() {}

  static String of(ServerTransportFactory factory, ClientAction client) throws Exception {
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = listening.getLocalPort();
      CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
        try {
          client.run(port);
        } catch (Exception expected) {
          // The client is meant to fail; the server's view is under test.
        }
      });
      try (Socket accepted = listening.accept()) {
        String message = assertThrows(TTransportException.class,
            () -> factory.transportFactory().getTransport(new TSocket(accepted))).getMessage();
        done.get(30, TimeUnit.SECONDS);
        return message.toLowerCase(Locale.ROOT);
      }
    }
  }
}
