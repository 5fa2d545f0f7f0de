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
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The non-blocking server with real peers over loopback: this project's clients and libthrift's. */
class NettyServerTest {
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-alice".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();

  private static NettyThriftServer start(SecurityConfig config, TProtocolFactory protocol) throws Exception {
    return start(config, protocol, false);
  }

  /**
   * With calls on the event loop there is one loop, so a connection served after an attack shares the loop that ran
   * the attacker's message.
   */
  private static NettyThriftServer start(SecurityConfig config, TProtocolFactory protocol, boolean callsOnEventLoop)
      throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(protocol).workerThreads(4).eventLoopThreads(callsOnEventLoop ? 1 : 2)
        .callsOnEventLoop(callsOnEventLoop).shutdownGrace(Duration.ofSeconds(2)).build()
        .start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static void echoRoundTrips(EchoService.Client client, int size) throws Exception {
    byte[] payload = new byte[size];
    new Random(size).nextBytes(payload);
    assertArrayEquals(payload, toArray(client.echo(ByteBuffer.wrap(payload))));
    EchoFailure failure = assertThrows(EchoFailure.class, () -> client.fail("expected"));
    assertEquals("expected", failure.getMessage());
    // The connection still serves after a call that threw.
    assertArrayEquals(new byte[] {1, 2, 3}, toArray(client.echo(ByteBuffer.wrap(new byte[] {1, 2, 3}))));
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }

  @Test
  void plainFramedWithThisProjectsClientBinaryAndCompact() throws Exception {
    for (TProtocolFactory protocol : new TProtocolFactory[] {new TBinaryProtocol.Factory(),
        new TCompactProtocol.Factory()}) {
      SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).build();
      try (NettyThriftServer server = start(config, protocol);
          ClientTransportFactory clients = ClientTransportFactory.create(config);
          SecuredTransport transport = clients.open("127.0.0.1", server.port())) {
        EchoService.Client client = new EchoService.Client(transport.protocol(protocol));
        echoRoundTrips(client, 300_000);
        assertTrue(client.whoAmI().startsWith("PeerIdentity[none /127.0.0.1:"), client.whoAmI());
      }
    }
  }

  @Test
  void plainFramedWithLibthriftClientBinaryAndCompact() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).build();
    for (TProtocolFactory protocol : new TProtocolFactory[] {new TBinaryProtocol.Factory(),
        new TCompactProtocol.Factory()}) {
      try (NettyThriftServer server = start(config, protocol);
          TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", server.port()))) {
        transport.open();
        EchoService.Client client = new EchoService.Client(protocol.getProtocol(transport));
        echoRoundTrips(client, 100_000);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void digestWithThisProjectsClient(QualityOfProtection qop) throws Exception {
    SecurityConfig.Builder base = SecurityConfig.builder().mode(SecurityMode.SASL)
        .saslMechanism(SaslMechanism.DIGEST_MD5).qop(qop).serverHost("localhost").maxFrameSize(4L << 20);
    try (NettyThriftServer server = start(base.delegationTokenSecrets(SECRETS).build(),
        new TCompactProtocol.Factory());
        ClientTransportFactory clients = ClientTransportFactory.create(base.delegationToken(TOKEN).build());
        SecuredTransport transport = clients.open("localhost", server.port())) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
      echoRoundTrips(client, 1_000_000);
      String who = client.whoAmI();
      assertTrue(who.contains("DIGEST-MD5 " + qop), who);
    }
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void digestWithLibthriftClient(QualityOfProtection qop) throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.DIGEST_MD5)
        .qop(qop).serverHost("localhost").delegationTokenSecrets(SECRETS).build();
    try (NettyThriftServer server = start(config, new TCompactProtocol.Factory())) {
      TSaslClientTransport transport = new TSaslClientTransport("DIGEST-MD5", null, "accumulo", "localhost",
          Map.of(Sasl.QOP, qop.token()), NettyServerTest::digestCallbacks, new TSocket("localhost", server.port()));
      transport.open();
      try {
        EchoService.Client client = new EchoService.Client(new TCompactProtocol(transport));
        echoRoundTrips(client, 200_000);
      } finally {
        transport.close();
      }
    }
  }

  private static void digestCallbacks(Callback[] callbacks) {
    java.util.Base64.Encoder base64 = java.util.Base64.getEncoder();
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

  @Test
  void multiplexedProcessorsOverSaslAuthConf() throws Exception {
    SecurityConfig.Builder base = SecurityConfig.builder().mode(SecurityMode.SASL)
        .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF).serverHost("localhost");
    TMultiplexedProcessor processor = new TMultiplexedProcessor();
    processor.registerProcessor("first", new EchoService.Processor<>(new EchoHandler()));
    processor.registerProcessor("second", new EchoService.Processor<>(new EchoHandler()));
    try (NettyThriftServer server = NettyThriftServer.builder(base.delegationTokenSecrets(SECRETS).build(), processor)
        .protocolFactory(new TCompactProtocol.Factory()).build().start(new InetSocketAddress("127.0.0.1", 0));
        ClientTransportFactory clients = ClientTransportFactory.create(base.delegationToken(TOKEN).build());
        SecuredTransport transport = clients.open("localhost", server.port())) {
      TProtocol protocol = transport.protocol(new TCompactProtocol.Factory());
      EchoService.Client first = new EchoService.Client(new TMultiplexedProtocol(protocol, "first"));
      EchoService.Client second = new EchoService.Client(new TMultiplexedProtocol(protocol, "second"));
      echoRoundTrips(first, 70_000);
      echoRoundTrips(second, 10);
    }
  }

  @Test
  void aPeerThatDoesNotReadItsRepliesIsClosedAtTheFatalLimit() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).writeBufferLow(16 * 1024)
        .writeBufferHigh(32 * 1024).writeBufferFatal(64 * 1024).build();
    try (NettyThriftServer server = start(config, new TBinaryProtocol.Factory());
        ClientTransportFactory clients = ClientTransportFactory.create(config);
        SecuredTransport transport = clients.open("127.0.0.1", server.port())) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory()));
      echoRoundTrips(client, 30_000);
      // A reply over the fatal limit cannot be held for the peer: the connection closes instead.
      assertThrows(TTransportException.class, () -> client.echo(ByteBuffer.wrap(new byte[100_000])));
    }
  }

  /**
   * Peers that pipeline 1 MiB calls and never read: each holds one reply at most, and once the replies waiting in all
   * pass {@code securethrift.server.pending.replies.max} the connection whose reply waited longest is closed (one
   * warning for them all), while a reading client is served.
   */
  @Test
  void repliesNoPeerTakesAreBoundedAcrossConnections() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).pendingRepliesMax(2L << 20).build();
    TMemoryBuffer message = new TMemoryBuffer(1 << 21);
    new EchoService.Client(new TBinaryProtocol(message)).send_echo(ByteBuffer.allocate(1 << 20));
    byte[] call = new byte[4 + message.length()];
    ByteBuffer.wrap(call).putInt(message.length()).put(message.getArray(), 0, message.length());
    List<Socket> stalled = new java.util.ArrayList<>();
    try (LogCapture log = LogCapture.start();
        NettyThriftServer server = start(config, new TBinaryProtocol.Factory());
        ClientTransportFactory clients = ClientTransportFactory.create(config)) {
      for (int i = 0; i < 6; i++) {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
        stalled.add(socket);
        Thread writer = new Thread(() -> {
          try {
            for (int k = 0; k < 8; k++) {
              socket.getOutputStream().write(call);
            }
          } catch (java.io.IOException closed) {
            // The server closed it: what this test waits for.
          }
        }, "never-reads-" + i);
        writer.setDaemon(true);
        writer.start();
      }
      String warning = log.awaitLines("waited longest", 1, Duration.ofSeconds(30)).get(0);
      assertTrue(warning.contains("securethrift.server.pending.replies.max (2097152 bytes)"), warning);
      io.securethrift.core.testing.Await.until("stalled connections closed", Duration.ofSeconds(30),
          () -> server.connections() < 6);
      try (SecuredTransport transport = clients.open("127.0.0.1", server.port())) {
        echoRoundTrips(new EchoService.Client(transport.protocol(new TBinaryProtocol.Factory())), 10);
      }
    } finally {
      for (Socket socket : stalled) {
        socket.close();
      }
    }
  }

  @Test
  void pipelinedCallsAreAnsweredOneAtATimeInOrder() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).build();
    try (NettyThriftServer server = start(config, new TBinaryProtocol.Factory());
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", server.port()))) {
      transport.open();
      TProtocol protocol = new TBinaryProtocol(transport);
      EchoService.Client client = new EchoService.Client(protocol);
      int calls = 5;
      // All sent before any reply is read: the server reads on while the first runs and queues what follows.
      for (int i = 0; i < calls; i++) {
        client.send_echo(ByteBuffer.wrap(new byte[] {(byte) i, 1, 2}));
      }
      // Read by hand: libthrift's client expects each reply to carry the sequence id of the last call sent.
      for (int i = 0; i < calls; i++) {
        TMessage reply = protocol.readMessageBegin();
        assertEquals(i + 1, reply.seqid, "replies in the order of their calls");
        EchoService.echo_result result = new EchoService.echo_result();
        result.read(protocol);
        protocol.readMessageEnd();
        assertEquals(ByteBuffer.wrap(new byte[] {(byte) i, 1, 2}), result.success);
      }
    }
  }

  @ParameterizedTest(name = "calls on the event loop: {0}")
  @ValueSource(booleans = {false, true})
  void oversizedLengthHeaderIsRefusedWithoutAllocation(boolean callsOnEventLoop) throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).build();
    try (LogCapture log = LogCapture.start();
        NettyThriftServer server = start(config, new TBinaryProtocol.Factory(), callsOnEventLoop)) {
      for (int i = 0; i < 5; i++) {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
          socket.setSoTimeout(10_000);
          OutputStream out = socket.getOutputStream();
          // 2 GiB - 1 declared, nothing sent after it: the server must close, not wait for (or allocate) the frame.
          out.write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
          out.flush();
          InputStream in = socket.getInputStream();
          assertEquals(-1, in.read());
        }
      }
      // Each was logged before its close; the main log has one warning for the five.
      List<String> warnings = log.lines("closing connection with");
      assertEquals(1, warnings.size(), log.text());
      assertTrue(warnings.get(0).contains("securethrift.limit.max.frame.size"), warnings.get(0));
    }
  }

  @ParameterizedTest(name = "calls on the event loop: {0}")
  @ValueSource(booleans = {false, true})
  void aMessageDeclaringTwoBillionElementsClosesOnlyItsConnection(boolean callsOnEventLoop) throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE).build();
    TMemoryBuffer message = new TMemoryBuffer(64);
    TBinaryProtocol writer = new TBinaryProtocol(message);
    writer.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
    writer.writeStructBegin(new TStruct("echo_args"));
    writer.writeFieldBegin(new TField("payload", TType.LIST, (short) 1));
    writer.writeListBegin(new TList(TType.STRUCT, Integer.MAX_VALUE));
    byte[] body = Arrays.copyOf(message.getArray(), message.length());
    try (NettyThriftServer server = start(config, new TBinaryProtocol.Factory(), callsOnEventLoop);
        Socket socket = new Socket("127.0.0.1", server.port());
        ClientTransportFactory clients = ClientTransportFactory.create(config);
        SecuredTransport other = clients.open("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(new byte[] {0, 0, (byte) (body.length >>> 8), (byte) body.length});
      out.write(body);
      out.flush();
      assertEquals(-1, socket.getInputStream().read());
      // Another connection is served as before.
      echoRoundTrips(new EchoService.Client(other.protocol(new TBinaryProtocol.Factory())), 10);
    }
  }

  @Test
  void garbageBeforeSaslNegotiationIsRefused() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.DIGEST_MD5)
        .serverHost("localhost").delegationTokenSecrets(SECRETS).build();
    try (NettyThriftServer server = start(config, new TBinaryProtocol.Factory());
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      // BAD (3) with a reason, then the close.
      assertEquals(3, in.read());
      while (in.read() != -1) {
        continue;
      }
    }
  }
}
