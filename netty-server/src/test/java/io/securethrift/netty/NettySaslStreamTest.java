package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SASL data is a stream: a token may hold several calls, and a call may span tokens. Calls sent in one write, so that
 * both happen, are answered one at a time in order, with calls on workers and on the event loop.
 */
class NettySaslStreamTest {
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-carol".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();
  private static final int CALLS = 40;

  /** Mostly a few bytes, so that many calls share a token; one larger than a token (64 KiB at most). */
  private static ByteBuffer payload(int call) {
    byte[] bytes = new byte[call == CALLS / 2 ? 70_000 : call % 5];
    Arrays.fill(bytes, (byte) call);
    return ByteBuffer.wrap(bytes);
  }

  @ParameterizedTest(name = "calls on the event loop: {0}")
  @ValueSource(booleans = {false, true})
  void callsSentTogetherOverAuthConfAreAnsweredInOrder(boolean callsOnEventLoop) throws Exception {
    SecurityConfig.Builder base = SecurityConfig.builder().mode(SecurityMode.SASL)
        .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF).serverHost("localhost");
    try (NettyThriftServer server = NettyThriftServer.builder(base.delegationTokenSecrets(SECRETS).build(),
        new EchoService.Processor<>(new EchoHandler())).protocolFactory(new TCompactProtocol.Factory())
        .workerThreads(2).eventLoopThreads(1).callsOnEventLoop(callsOnEventLoop).shutdownGrace(Duration.ofSeconds(2))
        .build().start(new InetSocketAddress("127.0.0.1", 0));
        ClientTransportFactory clients = ClientTransportFactory.create(base.delegationToken(TOKEN).build());
        SecuredTransport transport = clients.open("localhost", server.port())) {
      TMemoryBuffer requests = new TMemoryBuffer(1 << 17);
      EchoService.Client writer = new EchoService.Client(new TCompactProtocol(requests));
      for (int i = 0; i < CALLS; i++) {
        writer.send_echo(payload(i));
      }
      // One write, one flush: the transport cuts the stream into tokens of the negotiated size. The requests and
      // replies together are small enough for the sockets' buffers, so writing all before reading cannot stall.
      transport.write(requests.getArray(), 0, requests.length());
      transport.flush();
      TProtocol in = new TCompactProtocol(transport);
      for (int i = 0; i < CALLS; i++) {
        TMessage reply = in.readMessageBegin();
        assertEquals(i + 1, reply.seqid, "replies in the order of their calls");
        EchoService.echo_result result = new EchoService.echo_result();
        result.read(in);
        in.readMessageEnd();
        assertEquals(payload(i), result.success);
      }
    }
  }
}
