package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.client.IngestClient;
import io.securethrift.ingest.server.IngestServer;
import io.securethrift.ingest.workload.VerifyResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile peers against a real ingest server in every mode: lying lengths and counts sent through a connection that
 * completed its handshake (the attacker holds whatever the mode asks for), and garbage, truncated and oversized
 * headers, the wrong protocol and stalls before any handshake. Each case checks that the attacker's connection is
 * closed, that the whole JVM allocated little while refusing it (per-thread allocation counters, summed), and that a
 * legitimate client is served next.
 */
class HostileInputTest {
  /** What the issue allows for eight attack connections; each case here is held to it alone. */
  private static final long BUDGET = 16L << 20;
  /** Short, so stalled peers are dropped within the test; long enough for a legitimate RSA handshake on a busy box. */
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(3);
  private static final String HOST = BenchSecurity.HOST;

  @TempDir
  static Path dir;
  private static BenchSecurity security;

  /** One server configuration under attack; {@code stream} when data frames are SASL's byte stream. */
  static final class Target {
    final String name;
    final BiFunction<BenchSecurity, Boolean, SecurityConfig> config;
    final boolean stream;

    Target(String name, BiFunction<BenchSecurity, Boolean, SecurityConfig> config, boolean stream) {
      this.name = name;
      this.config = config;
      this.stream = stream;
    }

    SecurityConfig server() {
      return config.apply(security, true).toBuilder().handshakeTimeout(HANDSHAKE_TIMEOUT).build();
    }

    SecurityConfig client() {
      return config.apply(security, false);
    }

    /** The client's configuration with a short read timeout, so a server that keeps waiting fails the case soon. */
    SecurityConfig attacker() {
      return client().toBuilder().readTimeout(Duration.ofSeconds(10)).build();
    }

    boolean handshakes() {
      return client().mode() != SecurityMode.NONE;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Target> targets() {
    List<Target> targets = new ArrayList<>();
    for (BenchMode mode : EmbeddedBackend.MODES.all()) {
      targets.add(new Target(mode.name(), (s, server) -> s.config(mode, server).build(), mode.sasl()));
    }
    // TLS without client certificates: the attacker needs nothing, as in the reported attack.
    for (TlsEngine engine : new TlsEngine[] {TlsEngine.JSSE, TlsEngine.CONSCRYPT}) {
      targets.add(new Target("tls-" + engine.token() + "-anonymous", (s, server) -> s.tls(
          BenchSecurity.base(SecurityMode.TLS).tlsEngine(engine), server, false).build(), false));
    }
    return targets.stream();
  }

  @BeforeAll
  static void startKdcAndCa() {
    security = new BenchSecurity(dir);
  }

  @AfterAll
  static void stopKdc() {
    security.close();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("targets")
  void lyingLengthsAndCountsAreRefusedAfterTheHandshake(Target target) throws Exception {
    List<byte[]> attacks = new ArrayList<>(List.of(
        stringLengthAtTheEndOfTheFrame(),
        listCount(50_000_000),
        binaryProtocolStringLength(),
        garbage(4096)));
    try (LogCapture log = LogCapture.start();
        IngestServer server = IngestServer.start(target.server(), new InetSocketAddress(HOST, 0), null);
        ClientTransportFactory attacker = ClientTransportFactory.create(target.attacker())) {
      for (byte[] attack : attacks) {
        long before = allocatedByAllThreads();
        SecuredTransport connection = attacker.open(HOST, server.port());
        connection.write(attack);
        connection.flush();
        assertClosedByServer(connection);
        long allocated = allocatedByAllThreads() - before;
        assertTrue(allocated < BUDGET, target + ": refusing a " + attack.length + "-byte attack allocated "
            + allocated + " bytes");
        assertServesLegitimateClient(target, server);
      }
      if (!target.stream) {
        // Thrift framing: a message split over two frames is refused at the second; SASL data may span tokens.
        SecuredTransport connection = attacker.open(HOST, server.port());
        byte[] call = listCount(3);
        connection.write(Arrays.copyOf(call, call.length - 1));
        connection.flush();
        connection.write(Arrays.copyOfRange(call, call.length - 1, call.length));
        connection.flush();
        assertClosedByServer(connection);
        assertServesLegitimateClient(target, server);
      }
      assertNoErrorLines(target, log);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("targets")
  void badBytesBeforeTheHandshakeAreRefused(Target target) throws Exception {
    boolean sasl = target.stream;
    List<byte[]> attacks = List.of(
        // A header declaring 2 GiB: a plain frame, a TLS record or a SASL START, whichever the port expects.
        sasl ? new byte[] {1, 0x7f, -1, -1, -1, 'G'} : new byte[] {0x7f, -1, -1, -1, 0, 0},
        garbage(64 * 1024),
        // Truncated: half a header, then the peer goes away.
        new byte[] {0, 0},
        // The wrong protocol: a TLS ClientHello record header to a plain or SASL port, a plain frame to a TLS port.
        target.handshakes() && !sasl ? listCount(1) : new byte[] {0x16, 3, 1, 2, 0, 1, 0, 1, -4, 3, 3});
    try (LogCapture log = LogCapture.start();
        IngestServer server = IngestServer.start(target.server(), new InetSocketAddress(HOST, 0), null)) {
      for (byte[] attack : attacks) {
        long before = allocatedByAllThreads();
        try (Socket socket = new Socket(HOST, server.port())) {
          socket.getOutputStream().write(attack);
          socket.getOutputStream().flush();
          if (attack.length > 2) {
            assertEndsWithin(socket, HANDSHAKE_TIMEOUT.multipliedBy(3));
          }
        }
        long allocated = allocatedByAllThreads() - before;
        assertTrue(allocated < BUDGET, target + ": " + attack.length + " bad bytes cost " + allocated + " bytes");
        assertServesLegitimateClient(target, server);
      }
      assertNoErrorLines(target, log);
    }
  }

  /** A peer's bytes are a WARN at most: neither our loggers nor libthrift's server loop log an ERROR for them. */
  private static void assertNoErrorLines(Target target, LogCapture log) {
    List<String> errors = log.lines("] ERROR ");
    assertTrue(errors.isEmpty(), target + ": " + String.join("\n", errors));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("targets")
  void stalledPeersDoNotStopALegitimateClient(Target target) throws Exception {
    try (IngestServer server = IngestServer.start(target.server(), new InetSocketAddress(HOST, 0), null)) {
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < 16; i++) {
          Socket socket = new Socket(HOST, server.port());
          stalled.add(socket);
          // Half a handshake or half a frame, then nothing.
          socket.getOutputStream().write(new byte[] {target.stream ? (byte) 1 : (byte) 0x16, 0});
        }
        assertServesLegitimateClient(target, server);
        if (target.handshakes()) {
          for (Socket socket : stalled) {
            assertEndsWithin(socket, HANDSHAKE_TIMEOUT.multipliedBy(3));
          }
        }
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
      }
    }
  }

  /** The reported attack: a compact call whose frame ends with the varint length of a 196,608,000-byte name. */
  private static byte[] stringLengthAtTheEndOfTheFrame() {
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    message.write(0x82);
    message.write(0x21);
    message.write(0x00);
    writeVarint(message, 196_608_000);
    return message.toByteArray();
  }

  /** The same in the binary protocol, which the compact server reads as garbage. */
  private static byte[] binaryProtocolStringLength() {
    return ByteBuffer.allocate(8).putInt(0x80010001).putInt(200_000_000).array();
  }

  /** An applyBatch call declaring {@code count} entries and sending none. */
  private static byte[] listCount(int count) throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(64);
    TProtocol p = new TCompactProtocol(buffer);
    p.writeMessageBegin(new TMessage("applyBatch", TMessageType.CALL, 1));
    p.writeStructBegin(new TStruct("applyBatch_args"));
    p.writeFieldBegin(new TField("entries", TType.LIST, (short) 1));
    p.writeListBegin(new TList(TType.STRUCT, count));
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  private static byte[] garbage(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }

  private static void writeVarint(ByteArrayOutputStream out, int value) {
    int v = value;
    while ((v & ~0x7f) != 0) {
      out.write((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  /** The server closed the attacker's connection: its next read fails instead of waiting for a reply. */
  private static void assertClosedByServer(SecuredTransport connection) {
    try {
      assertThrows(TTransportException.class, () -> connection.read(new byte[1], 0, 1));
    } finally {
      connection.close();
    }
  }

  /** The server ends the connection (end of stream or reset) well before {@code limit}. */
  private static void assertEndsWithin(Socket socket, Duration limit) throws IOException {
    socket.setSoTimeout((int) limit.toMillis());
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      while (in.read(buffer) >= 0) {
        // Whatever the server says first (an alert, a BAD reason) is drained; the end is what counts.
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept the connection open for " + limit, e);
    } catch (IOException reset) {
      // A reset ends it too.
    }
  }

  private static void assertServesLegitimateClient(Target target, IngestServer server) throws IOException {
    try (IngestClient client = new IngestClient(target.client(), HOST, server.port())) {
      client.reset();
      assertEquals(new VerifyResult(0, 0, 0, 0, List.of()), client.verify(), target + ": legitimate client");
    }
  }

  /** Bytes allocated so far by every live thread: the server's workers, its acceptor and this test. */
  private static long allocatedByAllThreads() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds())).filter(b -> b > 0).sum();
  }
}
