package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.junit.jupiter.api.Test;

/**
 * libthrift's {@code TThreadPoolServer} runs every connection on a worker thread of its own and, unbounded, created
 * one for each connection of a flood until the JVM could create no more. Built with
 * {@link ServerTransportFactory#threadPoolServerArgs}, it has at most {@code securethrift.server.max.threads}: the
 * connections beyond them are closed, and the thread count stays put however many arrive.
 */
class ThreadPoolServerLimitTest {
  private static final String WORKER = "TThreadPoolServer WorkerProcess";

  @Test
  void aConnectionFloodNeverOutgrowsTheWorkerThreads() throws Exception {
    int threads = 4;
    int flood = 40;
    SecurityConfig config = SecurityConfig.builder().maxThreads(threads).build();
    List<Socket> idle = new ArrayList<>();
    try (ServerTransportFactory factory = ServerTransportFactory.create(config)) {
      TServerSocket listening = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      int port = ServerTransportFactory.port(listening);
      // The arguments as threadPoolServerArgs gives them: only the protocol added, no thread limit of the caller's.
      TThreadPoolServer server = new TThreadPoolServer(factory.threadPoolServerArgs(listening, EchoServer.processor())
          .protocolFactory(new TCompactProtocol.Factory()));
      Thread serving = new Thread(server::serve, "thread-limit-server");
      serving.start();
      try {
        for (int i = 0; i < flood; i++) {
          Socket socket = new Socket("127.0.0.1", port);
          socket.setSoTimeout(20);
          idle.add(socket);
        }
        // The idle connections hold every thread; the server closes each one beyond them as it accepts it.
        Await.until("all but " + threads + " idle connections closed by the server", Duration.ofSeconds(30),
            () -> closed(idle) >= flood - threads);
        assertTrue(workers() <= threads, workers() + " worker threads for " + threads + " allowed");
        for (Socket socket : idle) {
          socket.close();
        }
        try (ClientTransportFactory clients = ClientTransportFactory.create(config);
            SecuredTransport transport = clients.open("127.0.0.1", port)) {
          EchoServer.assertEchoes(EchoServer.client(transport), 1, 1000);
        }
      } finally {
        for (Socket socket : idle) {
          socket.close();
        }
        server.stop();
        serving.join(30_000);
      }
    }
  }

  private static long closed(List<Socket> sockets) {
    return sockets.stream().filter(ThreadPoolServerLimitTest::closedByServer).count();
  }

  private static boolean closedByServer(Socket socket) {
    try {
      return socket.getInputStream().read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static long workers() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(WORKER)).count();
  }
}
