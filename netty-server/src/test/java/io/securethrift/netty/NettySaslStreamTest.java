package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SASL data is a stream: a token may hold several calls, and a call may span tokens. Calls sent in one write, so that
 * both happen, are answered one at a time in order, with calls on workers and on the event loop. A call may also come
 * in the same write as the last negotiation message.
 */
class NettySaslStreamTest {
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-carol".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();
  private static final int CALLS = 40;
  private static final byte START = 1;
  private static final byte OK = 2;
  private static final byte COMPLETE = 5;

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

  /**
   * A client that sends its first call in the same write as its last negotiation message, before the server's
   * COMPLETE: the negotiation hands the bytes it did not consume to the frame codec, which serves the call once the
   * peer is authenticated. (libthrift's client waits for COMPLETE; a peer need not.)
   */
  @ParameterizedTest(name = "calls on the event loop: {0}")
  @ValueSource(booleans = {false, true})
  void aCallSentRightBehindTheLastNegotiationMessageIsServed(boolean callsOnEventLoop) throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.DIGEST_MD5)
        .qop(QualityOfProtection.AUTH).serverHost("localhost").delegationTokenSecrets(SECRETS).build();
    try (NettyThriftServer server = NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(2).eventLoopThreads(1)
        .callsOnEventLoop(callsOnEventLoop).shutdownGrace(Duration.ofSeconds(2)).build()
        .start(new InetSocketAddress("127.0.0.1", 0));
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      DataInputStream in = new DataInputStream(socket.getInputStream());
      SaslClient sasl = Sasl.createSaslClient(new String[] {"DIGEST-MD5"}, null, "accumulo", "localhost",
          Map.of(Sasl.QOP, QualityOfProtection.AUTH.token()), NettySaslStreamTest::digestCallbacks);
      negotiation(out, START, "DIGEST-MD5".getBytes(StandardCharsets.US_ASCII));
      negotiation(out, OK, new byte[0]);
      out.flush();
      byte[] response = sasl.evaluateChallenge(expect(in, OK));
      ByteArrayOutputStream both = new ByteArrayOutputStream();
      DataOutputStream writer = new DataOutputStream(both);
      negotiation(writer, OK, response);
      // At auth a data frame carries the plain message.
      TMemoryBuffer call = new TMemoryBuffer(64);
      new EchoService.Client(new TCompactProtocol(call)).send_echo(ByteBuffer.wrap(new byte[] {4, 5, 6}));
      writer.writeInt(call.length());
      writer.write(call.getArray(), 0, call.length());
      out.write(both.toByteArray());
      out.flush();
      sasl.evaluateChallenge(expect(in, COMPLETE));
      assertTrue(sasl.isComplete());
      byte[] reply = new byte[in.readInt()];
      in.readFully(reply);
      TProtocol replies = new TCompactProtocol(new TMemoryInputTransport(reply));
      assertEquals(1, replies.readMessageBegin().seqid);
      EchoService.echo_result result = new EchoService.echo_result();
      result.read(replies);
      assertEquals(ByteBuffer.wrap(new byte[] {4, 5, 6}), result.success);
    }
  }

  private static void negotiation(DataOutputStream out, byte status, byte[] payload) throws IOException {
    out.writeByte(status);
    out.writeInt(payload.length);
    out.write(payload);
  }

  /** The payload of the server's next negotiation message, which must have {@code status}. */
  private static byte[] expect(DataInputStream in, byte status) throws IOException {
    assertEquals(status, in.readByte());
    byte[] payload = new byte[in.readInt()];
    in.readFully(payload);
    return payload;
  }

  private static void digestCallbacks(Callback[] callbacks) {
    Base64.Encoder base64 = Base64.getEncoder();
    for (Callback callback : callbacks) {
      if (callback instanceof NameCallback) {
        ((NameCallback) callback).setName(base64.encodeToString(TOKEN.identifier()));
      } else if (callback instanceof PasswordCallback) {
        ((PasswordCallback) callback).setPassword(base64.encodeToString(TOKEN.password()).toCharArray());
      } else if (callback instanceof RealmCallback) {
        RealmCallback realm = (RealmCallback) callback;
        realm.setText(realm.getDefaultText());
      }
    }
  }
}
