package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/** Shutdown, idle and per-address limits, and hostile negotiation headers on the non-blocking server. */
class NettyLifecycleTest {
  private static final SecurityConfig PLAIN = SecurityConfig.builder().mode(SecurityMode.NONE).build();

  private static NettyThriftServer start(SecurityConfig config, TProcessor processor) throws Exception {
    return NettyThriftServer.builder(config, processor).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(5)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  @Test
  void shutdownStopsAcceptingAndFinishesTheCallInFlight() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TProcessor echo = new EchoService.Processor<>(new EchoHandler());
    TProcessor held = (in, out) -> {
      entered.countDown();
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      echo.process(in, out);
    };
    NettyThriftServer server = start(PLAIN, held);
    int port = server.port();
    // Threads of the test's own: the common pool may have a single thread, which the held call would occupy.
    ExecutorService async = Executors.newFixedThreadPool(2);
    try (ClientTransportFactory clients = ClientTransportFactory.create(PLAIN);
        SecuredTransport transport = clients.open("127.0.0.1", port)) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory()));
      CompletableFuture<ByteBuffer> reply = CompletableFuture.supplyAsync(() -> {
        try {
          return client.echo(ByteBuffer.wrap(new byte[] {4, 2}));
        } catch (org.apache.thrift.TException e) {
          throw new IllegalStateException(e);
        }
      }, async);
      assertTrue(entered.await(10, TimeUnit.SECONDS));
      CompletableFuture<Void> shutdown = CompletableFuture.runAsync(() -> server.shutdown(Duration.ofSeconds(10)),
          async);
      Await.until("refused(port)", Duration.ofSeconds(10), () -> refused(port));
      release.countDown();
      ByteBuffer echoed = reply.get(10, TimeUnit.SECONDS);
      byte[] got = new byte[echoed.remaining()];
      echoed.get(got);
      assertArrayEquals(new byte[] {4, 2}, got);
      shutdown.get(20, TimeUnit.SECONDS);
      assertEquals(0, server.connections());
    } finally {
      async.shutdownNow();
    }
  }

  /**
   * An {@code Error} from the service (here an {@code AssertionError}) ends its call: the connection closes, its call
   * is no longer in flight (so a shutdown does not wait its whole grace), and the server goes on serving.
   */
  @Test
  void anErrorFromTheServiceEndsItsCallAndClosesOnlyItsConnection() throws Exception {
    TProcessor echo = new EchoService.Processor<>(new EchoHandler());
    AtomicBoolean failNext = new AtomicBoolean(true);
    TProcessor failing = (in, out) -> {
      if (failNext.getAndSet(false)) {
        throw new AssertionError("a broken invariant in the service");
      }
      echo.process(in, out);
    };
    try (NettyThriftServer server = start(PLAIN, failing);
        ClientTransportFactory clients = ClientTransportFactory.create(PLAIN)) {
      try (SecuredTransport transport = clients.open("127.0.0.1", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory()));
        assertThrows(TTransportException.class, () -> client.echo(ByteBuffer.wrap(new byte[] {1})));
      }
      Await.until("no call in flight and no connection", Duration.ofSeconds(10),
          () -> server.callsInFlight() == 0 && server.connections() == 0);
      assertEchoes(clients, server.port());
    }
  }

  /**
   * A call to an unknown method whose arguments nest 10,000 structs deep: libthrift 0.17 skips them recursively
   * without a limit, which ended the worker with a {@code StackOverflowError}. The frame-bounded protocol refuses
   * nesting beyond 64 levels, the connection closes, and the server goes on serving.
   */
  @Test
  void deeplyNestedArgumentsAreRefusedAndTheServerGoesOn() throws Exception {
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(message);
    out.writeInt(0x80010001);
    out.writeInt(4);
    out.writeBytes("nope");
    out.writeInt(1);
    int depth = 10_000;
    for (int i = 0; i < depth; i++) {
      out.writeByte(TType.STRUCT);
      out.writeShort(1);
    }
    for (int i = 0; i <= depth; i++) {
      out.writeByte(TType.STOP);
    }
    try (NettyThriftServer server = start(PLAIN, new EchoService.Processor<>(new EchoHandler()));
        ClientTransportFactory clients = ClientTransportFactory.create(PLAIN);
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      DataOutputStream frame = new DataOutputStream(socket.getOutputStream());
      frame.writeInt(message.size());
      message.writeTo(frame);
      frame.flush();
      assertEquals(-1, socket.getInputStream().read(), "the server closes the connection without a reply");
      Await.until("no call in flight", Duration.ofSeconds(10), () -> server.callsInFlight() == 0);
      assertEchoes(clients, server.port());
    }
  }

  /**
   * A peer that sends a call and then never reads (its 4 KiB receive window stays full) used to keep the connection,
   * its request and its 12 MiB reply for ever: a connection with a reply on its way is busy, and busy is not idle.
   * The reply now gets {@code securethrift.timeout.read} to be taken.
   */
  @Test
  void aReplyNobodyReadsClosesItsConnectionAfterTheReadTimeout() throws Exception {
    SecurityConfig config = PLAIN.toBuilder().readTimeout(Duration.ofSeconds(1)).build();
    byte[] call = echoCall(12 << 20);
    try (NettyThriftServer server = start(config, new EchoService.Processor<>(new EchoHandler()));
        ClientTransportFactory clients = ClientTransportFactory.create(PLAIN);
        Socket stalled = new Socket()) {
      stalled.setReceiveBufferSize(4096);
      stalled.connect(new InetSocketAddress("127.0.0.1", server.port()));
      DataOutputStream out = new DataOutputStream(stalled.getOutputStream());
      out.writeInt(call.length);
      out.write(call);
      out.flush();
      Await.until("the stalled connection closed and its call ended", Duration.ofSeconds(30),
          () -> server.connections() == 0 && server.callsInFlight() == 0);
      assertEchoes(clients, server.port());
    }
  }

  /** An {@code echo} call of {@code size} bytes in the binary protocol, unframed. */
  private static byte[] echoCall(int size) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TBinaryProtocol protocol = new TBinaryProtocol(new TIOStreamTransport(bytes));
    new EchoService.Client(protocol).send_echo(ByteBuffer.wrap(new byte[size]));
    return bytes.toByteArray();
  }

  private static void assertEchoes(ClientTransportFactory clients, int port) throws Exception {
    try (SecuredTransport transport = clients.open("127.0.0.1", port)) {
      EchoServer.assertEchoes(new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory())), 1, 1000);
    }
  }

  private static boolean refused(int port) {
    try (Socket probe = new Socket("127.0.0.1", port)) {
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void idleAuthenticatedConnectionsAreClosed() throws Exception {
    SecurityConfig config = PLAIN.toBuilder().serverIdleTimeout(Duration.ofMillis(300)).build();
    try (NettyThriftServer server = start(config, new EchoService.Processor<>(new EchoHandler()));
        ClientTransportFactory clients = ClientTransportFactory.create(config);
        SecuredTransport transport = clients.open("127.0.0.1", server.port())) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory()));
      client.whoAmI();
      Await.until("server.connections() == 0", Duration.ofSeconds(10), () -> server.connections() == 0);
      assertThrows(org.apache.thrift.TException.class, client::whoAmI);
    }
  }

  @Test
  void idleWorkerThreadsEnd() throws Exception {
    int calls = 4;
    // Every call waits until all are running, so each holds its own worker thread.
    CountDownLatch together = new CountDownLatch(calls);
    TProcessor echo = new EchoService.Processor<>(new EchoHandler());
    TProcessor gathered = (in, out) -> {
      together.countDown();
      try {
        together.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      echo.process(in, out);
    };
    ExecutorService callers = Executors.newFixedThreadPool(calls);
    List<SecuredTransport> transports = new ArrayList<>();
    try (NettyThriftServer server = NettyThriftServer.builder(PLAIN, gathered).workerThreads(8)
        .threadKeepAlive(Duration.ofMillis(200)).build().start(new InetSocketAddress("127.0.0.1", 0));
        ClientTransportFactory clients = ClientTransportFactory.create(PLAIN)) {
      List<CompletableFuture<ByteBuffer>> replies = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        SecuredTransport transport = clients.open("127.0.0.1", server.port());
        transports.add(transport);
        EchoService.Client client = new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory()));
        replies.add(CompletableFuture.supplyAsync(() -> {
          try {
            return client.echo(ByteBuffer.wrap(new byte[] {7}));
          } catch (org.apache.thrift.TException e) {
            throw new IllegalStateException(e);
          }
        }, callers));
      }
      for (CompletableFuture<ByteBuffer> reply : replies) {
        assertEquals(ByteBuffer.wrap(new byte[] {7}), reply.get(20, TimeUnit.SECONDS));
      }
      assertTrue(server.poolThreads() >= calls, "threads while calls ran: " + server.poolThreads());
      // The connections stay open and idle: they must not hold the threads.
      Await.until("server.poolThreads() == 0", Duration.ofSeconds(10), () -> server.poolThreads() == 0);
      assertEquals(calls, server.connections());
    } finally {
      callers.shutdownNow();
      for (SecuredTransport transport : transports) {
        transport.close();
      }
    }
  }

  @Test
  void connectionsPerAddressAreLimited() throws Exception {
    SecurityConfig config = PLAIN.toBuilder().maxConnectionsPerAddress(3).build();
    List<Socket> sockets = new ArrayList<>();
    try (NettyThriftServer server = start(config, new EchoService.Processor<>(new EchoHandler()))) {
      for (int i = 0; i < 3; i++) {
        sockets.add(new Socket("127.0.0.1", server.port()));
      }
      Await.until("server.connections() == 3", Duration.ofSeconds(10), () -> server.connections() == 3);
      try (Socket fourth = new Socket("127.0.0.1", server.port())) {
        fourth.setSoTimeout(5000);
        assertEquals(-1, fourth.getInputStream().read());
      }
      assertEquals(3, server.connections());
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  @Test
  void oversizedNegotiationLengthIsRefusedWithBad() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.DIGEST_MD5)
        .serverHost("localhost").delegationTokenSecrets(id -> java.util.Optional.empty()).build();
    try (NettyThriftServer server = start(config, new EchoService.Processor<>(new EchoHandler()));
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      // START with a 2 GiB - 1 payload declared and none sent.
      socket.getOutputStream().write(new byte[] {1, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      InputStream in = socket.getInputStream();
      assertEquals(3, in.read(), "BAD");
      byte[] length = in.readNBytes(4);
      String reason = new String(in.readNBytes(((length[2] & 0xff) << 8) | (length[3] & 0xff)),
          java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(reason.contains("securethrift.limit.max.negotiation.message.size"), reason);
      assertEquals(-1, in.read());
    }
  }
}
