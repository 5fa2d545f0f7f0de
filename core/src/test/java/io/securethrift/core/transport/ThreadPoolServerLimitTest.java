package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TMemoryBuffer;
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
        // The workers free themselves once they read the closes; until then the server still closes a newcomer.
        try (ClientTransportFactory clients = ClientTransportFactory.create(config)) {
          Await.until("a client served once the idle connections are gone", Duration.ofSeconds(30), () -> {
            try (SecuredTransport transport = clients.open("127.0.0.1", port)) {
              EchoServer.assertEchoes(EchoServer.client(transport), 1, 1000);
              return true;
            } catch (Exception closedWhileEveryWorkerWasStillBusy) {
              return false;
            }
          });
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

  /**
   * A peer that sends a call with a large reply and never reads (a 4 KiB receive window) used to hold its worker in
   * {@code socket.write} for ever: with the one thread it held, the server served nobody else. The write gets as long
   * as a read would ({@code securethrift.timeout.read}); then the connection is closed and the thread serves again.
   */
  @Test
  void aPeerThatNeverReadsFreesItsThreadAtTheReadTimeout() throws Exception {
    SecurityConfig config = SecurityConfig.builder().maxThreads(1).readTimeout(Duration.ofSeconds(1)).build();
    TMemoryBuffer message = new TMemoryBuffer(1 << 23);
    new EchoService.Client(new TCompactProtocol(message)).send_echo(ByteBuffer.allocate(8 << 20));
    try (ServerTransportFactory factory = ServerTransportFactory.create(config);
        Socket stalled = new Socket()) {
      TServerSocket listening = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      int port = ServerTransportFactory.port(listening);
      TThreadPoolServer server = new TThreadPoolServer(factory.threadPoolServerArgs(listening, EchoServer.processor())
          .protocolFactory(new TCompactProtocol.Factory()));
      Thread serving = new Thread(server::serve, "write-deadline-server");
      serving.start();
      try {
        stalled.setReceiveBufferSize(4096);
        stalled.connect(new InetSocketAddress("127.0.0.1", port));
        OutputStream out = stalled.getOutputStream();
        out.write(ByteBuffer.allocate(4).putInt(message.length()).array());
        out.write(message.getArray(), 0, message.length());
        out.flush();
        // The stalled peer holds the only thread until its write deadline: then a reading client is served.
        long start = System.nanoTime();
        try (ClientTransportFactory clients = ClientTransportFactory.create(config)) {
          Await.until("a reading client served", Duration.ofSeconds(30), () -> {
            try (SecuredTransport transport = clients.open("127.0.0.1", port)) {
              EchoServer.assertEchoes(EchoServer.client(transport), 1, 1000);
              return true;
            } catch (Exception refusedWhileTheThreadIsHeld) {
              return false;
            }
          });
        }
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(900).toNanos(),
            "the stalled peer held the thread until its deadline");
      } finally {
        server.stop();
        serving.join(30_000);
      }
    }
  }

  /**
   * Peers that pipeline 1 MiB calls and never read hold a worker each, blocked writing its reply: once the replies
   * being written pass {@code securethrift.server.pending.replies.max}, the connection whose reply waited longest is
   * closed (one warning for them all), so the server holds at most the bound's worth of them, and a reading client is
   * served. Without the bound each stalled worker held its reply for the whole read timeout.
   */
  @Test
  void largeRepliesNoPeerTakesAreBoundedAcrossConnections() throws Exception {
    SecurityConfig config = SecurityConfig.builder().maxThreads(16).pendingRepliesMax(2L << 20)
        .readTimeout(Duration.ofMinutes(5)).build();
    TMemoryBuffer message = new TMemoryBuffer(1 << 21);
    new EchoService.Client(new TCompactProtocol(message)).send_echo(ByteBuffer.allocate(1 << 20));
    byte[] call = ByteBuffer.allocate(4 + message.length()).putInt(message.length())
        .put(message.getArray(), 0, message.length()).array();
    List<Socket> stalled = new ArrayList<>();
    try (LogCapture log = LogCapture.start();
        ServerTransportFactory factory = ServerTransportFactory.create(config)) {
      TServerSocket listening = factory.listen(new InetSocketAddress("127.0.0.1", 0));
      int port = ServerTransportFactory.port(listening);
      TThreadPoolServer server = new TThreadPoolServer(factory.threadPoolServerArgs(listening, EchoServer.processor())
          .protocolFactory(new TCompactProtocol.Factory()));
      Thread serving = new Thread(server::serve, "pending-replies-server");
      serving.start();
      try {
        for (int i = 0; i < 6; i++) {
          Socket socket = new Socket();
          socket.setReceiveBufferSize(4096);
          socket.connect(new InetSocketAddress("127.0.0.1", port));
          stalled.add(socket);
          Thread writer = new Thread(() -> {
            try {
              for (int k = 0; k < 8; k++) {
                socket.getOutputStream().write(call);
              }
            } catch (IOException closed) {
              // The server closed it: what this test waits for.
            }
          }, "never-reads-" + i);
          writer.setDaemon(true);
          writer.start();
        }
        String warning = log.awaitLines("waited longest", 1, Duration.ofSeconds(30)).get(0);
        assertTrue(warning.contains("securethrift.server.pending.replies.max (2097152 bytes)"), warning);
        try (ClientTransportFactory clients = ClientTransportFactory.create(config);
            SecuredTransport transport = clients.open("127.0.0.1", port)) {
          EchoServer.assertEchoes(EchoServer.client(transport), 1, 1000, 200_000);
        }
        for (Socket socket : stalled) {
          socket.setSoTimeout(2000);
        }
        // Two replies of 1 MiB fit under the bound at most: every other stalled connection was closed.
        Await.until("stalled connections closed beyond the bound", Duration.ofSeconds(60),
            () -> stalled.stream().filter(ThreadPoolServerLimitTest::endsAfterItsData).count() >= stalled.size() - 2);
      } finally {
        // Closed before the server stops, so no worker is still blocked writing to one of them.
        for (Socket socket : stalled) {
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

  /** Whether the server closed the socket: its data read to the end, or a reset, within the socket's timeout. */
  private static boolean endsAfterItsData(Socket socket) {
    byte[] sink = new byte[1 << 16];
    try {
      while (socket.getInputStream().read(sink) >= 0) {
        // The parts of replies written before the close come first.
      }
      return true;
    } catch (SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  private static long workers() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(WORKER)).count();
  }
}
