package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testservice.EchoFailure;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;

/** The server with {@code callsOnEventLoop(true)}: the same answers as with workers, from the event loop's thread. */
class NettyCallsOnEventLoopTest {
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-bob".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();

  /**
   * Answers whoAmI with the thread that ran the call, then the caller's identity; keeps the deepest and shallowest
   * stack an echo ran on.
   */
  private static final class ThreadReportingHandler implements EchoService.Iface {
    private final EchoHandler echo = new EchoHandler();
    private final AtomicInteger deepest = new AtomicInteger();
    private final AtomicInteger shallowest = new AtomicInteger(Integer.MAX_VALUE);

    @Override
    public ByteBuffer echo(ByteBuffer payload) {
      int depth = Thread.currentThread().getStackTrace().length;
      deepest.accumulateAndGet(depth, Math::max);
      shallowest.accumulateAndGet(depth, Math::min);
      return echo.echo(payload);
    }

    @Override
    public String whoAmI() {
      return Thread.currentThread().getName() + " " + echo.whoAmI();
    }

    @Override
    public void fail(String message) throws EchoFailure {
      echo.fail(message);
    }
  }

  private static NettyThriftServer start(SecurityConfig config, boolean callsOnEventLoop) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new ThreadReportingHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(2).eventLoopThreads(2)
        .callsOnEventLoop(callsOnEventLoop).shutdownGrace(Duration.ofSeconds(2)).build()
        .start(new InetSocketAddress("127.0.0.1", 0));
  }

  @Test
  void saslAuthConfCallsRunOnTheEventLoopWithTheCallersIdentity() throws Exception {
    SecurityConfig.Builder base = SecurityConfig.builder().mode(SecurityMode.SASL)
        .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF).serverHost("localhost")
        .maxFrameSize(4L << 20);
    for (boolean onEventLoop : new boolean[] {true, false}) {
      try (NettyThriftServer server = start(base.delegationTokenSecrets(SECRETS).build(), onEventLoop);
          ClientTransportFactory clients = ClientTransportFactory.create(base.delegationToken(TOKEN).build());
          SecuredTransport transport = clients.open("localhost", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
        String who = client.whoAmI();
        assertTrue(who.startsWith(onEventLoop ? "securethrift-io-" : "securethrift-worker-"), who);
        assertTrue(who.contains("DIGEST-MD5 " + QualityOfProtection.AUTH_CONF), who);
        // A reply larger than the negotiated SASL buffer goes out wrapped in several frames.
        byte[] payload = new byte[1_000_000];
        Arrays.fill(payload, (byte) 7);
        assertArrayEquals(payload, bytes(client.echo(ByteBuffer.wrap(payload))));
        assertEquals("expected", assertThrows(EchoFailure.class, () -> client.fail("expected")).getMessage());
        assertArrayEquals(new byte[] {1, 2}, bytes(client.echo(ByteBuffer.wrap(new byte[] {1, 2}))));
      }
    }
  }

  @Test
  void thousandsOfCallsArrivingInOneWriteAreAnsweredInOrder() throws Exception {
    int calls = 3_000;
    TMemoryBuffer requests = new TMemoryBuffer(calls * 40);
    EchoService.Client writer = new EchoService.Client(new TBinaryProtocol(new TFramedTransport(requests)));
    for (int i = 0; i < calls; i++) {
      writer.send_echo(ByteBuffer.wrap(new byte[] {(byte) i, (byte) (i >> 8)}));
    }
    byte[] all = Arrays.copyOf(requests.getArray(), requests.length());
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).build();
    ThreadReportingHandler handler = new ThreadReportingHandler();
    try (NettyThriftServer server = NettyThriftServer.builder(config, new EchoService.Processor<>(handler))
        .callsOnEventLoop(true).build().start(new InetSocketAddress("127.0.0.1", 0));
        Socket socket = new Socket("127.0.0.1", server.port())) {
      // Sent whole by another thread while this one reads, so neither side's buffers can fill up and stall both.
      OutputStream out = socket.getOutputStream();
      CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
        try {
          out.write(all);
          out.flush();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      TProtocol in = new TBinaryProtocol(new TFramedTransport(new TSocket(socket)));
      for (int i = 0; i < calls; i++) {
        TMessage reply = in.readMessageBegin();
        assertEquals(i + 1, reply.seqid, "replies in the order of their calls");
        EchoService.echo_result result = new EchoService.echo_result();
        result.read(in);
        in.readMessageEnd();
        assertEquals(ByteBuffer.wrap(new byte[] {(byte) i, (byte) (i >> 8)}), result.success);
      }
      sent.get();
    }
    // Each call answered inside the loop that takes the next message, not in a pump nested per buffered message,
    // which would have run the later calls of a read tens of frames deeper each.
    assertTrue(handler.deepest.get() - handler.shallowest.get() < 40,
        handler.shallowest + " to " + handler.deepest + " frames");
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }
}
