package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.DelegationTokenSecrets;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Floods of real sockets against the non-blocking server: a thousand connections that never finish a handshake, more
 * than the unauthenticated limit admits, and hundreds of peers that each declare a frame or negotiation message of the
 * largest allowed size and then trickle it a few bytes at a time. In every mode a legitimate client is served
 * meanwhile, and the trickling peers cost memory according to what they sent, not to what they declared.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyFloodTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final DelegationToken TOKEN = new DelegationToken(
      "token-id-of-alice".getBytes(StandardCharsets.UTF_8), "secret".getBytes(StandardCharsets.UTF_8));
  private static final DelegationTokenSecrets SECRETS = id -> Arrays.equals(id, TOKEN.identifier())
      ? Optional.of(TOKEN.password()) : Optional.empty();
  private static final int FLOOD = 1000;
  /** Lower than the flood, so most of it is over the limit. */
  private static final int MAX_UNAUTHENTICATED = 200;
  private static final int TRICKLERS = 200;
  /** One byte per write, so that nearly every byte is a read of its own on the server. */
  private static final int TRICKLED_BYTES = 300;
  /**
   * What the server may hold in Netty's buffers for the tricklers, which declare 200 x 16 MiB (3.2 GB) and send
   * 200 x 300 bytes: their bytes, at most doubled, plus the allocator's caches. A buffer kept per read (64 bytes to
   * 2 KiB each) would come to several MiB.
   */
  private static final long HELD_BOUND = 2L << 20;
  /** What all threads together may allocate on the heap meanwhile: per-read garbage, never a declared length. */
  private static final long HEAP_BOUND = 48L << 20;

  private static Path serverStore;
  private static Path trustStore;

  /** The modes under attack; in {@code NONE} every connection is authenticated the moment it is accepted. */
  enum Mode {
    NONE, TLS, TLS_CONSCRYPT, SASL, SASL_OVER_TLS
  }

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  private static SecurityConfig.Builder config(Mode mode, boolean server) {
    SecurityConfig.Builder b = SecurityConfig.builder();
    if (mode == Mode.NONE) {
      return b.mode(SecurityMode.NONE);
    }
    if (mode != Mode.SASL) {
      b.mode(SecurityMode.TLS).tlsEngine(mode == Mode.TLS_CONSCRYPT ? TlsEngine.CONSCRYPT : TlsEngine.JSSE)
          .trustStore(trustStore, StoreType.PKCS12,
          Secret.of(PASSWORD));
      if (server) {
        b.keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NONE);
      }
    }
    if (mode == Mode.SASL || mode == Mode.SASL_OVER_TLS) {
      b.mode(mode == Mode.SASL ? SecurityMode.SASL : SecurityMode.SASL_OVER_TLS)
          .saslMechanism(SaslMechanism.DIGEST_MD5).qop(QualityOfProtection.AUTH_CONF).serverHost("localhost");
      if (server) {
        b.delegationTokenSecrets(SECRETS);
      } else {
        b.delegationToken(TOKEN);
      }
    }
    return b;
  }

  private static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  /** Every peer is on 127.0.0.1, so the per-address limits are lifted; the handshake deadline outlasts the test. */
  private static SecurityConfig serverConfig(Mode mode) {
    return config(mode, true).maxUnauthenticatedConnections(MAX_UNAUTHENTICATED).maxConnectionsPerAddress(5000)
        .maxUnauthenticatedConnectionsPerAddress(5000).handshakeTimeout(Duration.ofSeconds(60)).build();
  }

  /**
   * One address (127.0.0.2) churns silent connections as fast as it can, over a pool it can fill. Each of them at the
   * limit evicts the oldest handshake of the address holding the most, its own: a legitimate client from another
   * address keeps being served. Evicting the oldest of all, the server used to close the legitimate handshakes too
   * once the churn outran them.
   */
  @Test
  void aChurningFloodFromOneAddressEvictsOnlyItsOwnHandshakes() throws Exception {
    SecurityConfig serverConfig = config(Mode.TLS, true).maxUnauthenticatedConnections(20)
        .maxUnauthenticatedConnectionsPerAddress(20).handshakeTimeout(Duration.ofSeconds(60)).build();
    InetAddress attacker = InetAddress.getByName("127.0.0.2");
    AtomicBoolean churning = new AtomicBoolean(true);
    AtomicLong opened = new AtomicLong();
    try (NettyThriftServer server = start(serverConfig);
        ClientTransportFactory clients = ClientTransportFactory.create(config(Mode.TLS, false).build())) {
      InetAddress loopback = InetAddress.getByName("127.0.0.1");
      Thread churn = new Thread(() -> {
        while (churning.get()) {
          try (Socket socket = new Socket(loopback, server.port(), attacker, 0)) {
            opened.incrementAndGet();
          } catch (IOException e) {
            // Refused or reset while the server evicts: the churn goes on.
          }
        }
      }, "churn-from-127.0.0.2");
      churn.start();
      try {
        Await.until("the churn is under way", WAIT, () -> opened.get() > 200);
        for (int i = 0; i < 20; i++) {
          assertServed(clients, server);
        }
      } finally {
        churning.set(false);
        churn.join(10_000);
      }
    }
  }

  /** A second limit per address keeps one address from holding the whole unauthenticated pool at all. */
  @Test
  void oneAddressHoldsAtMostItsShareOfTheHandshakes() throws Exception {
    SecurityConfig serverConfig = config(Mode.TLS, true).maxUnauthenticatedConnections(50)
        .maxUnauthenticatedConnectionsPerAddress(10).handshakeTimeout(Duration.ofSeconds(60)).build();
    InetAddress attacker = InetAddress.getByName("127.0.0.2");
    List<Socket> silent = new ArrayList<>();
    try (NettyThriftServer server = start(serverConfig);
        ClientTransportFactory clients = ClientTransportFactory.create(config(Mode.TLS, false).build())) {
      for (int i = 0; i < 30; i++) {
        silent.add(new Socket(InetAddress.getByName("127.0.0.1"), server.port(), attacker, 0));
      }
      Await.until("10 of 127.0.0.2's handshakes admitted, the rest closed", WAIT,
          () -> server.unauthenticatedConnections() == 10 && server.connections() == 10);
      assertServed(clients, server);
    } finally {
      for (Socket socket : silent) {
        socket.close();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aThousandSilentConnectionsLeaveALegitimateClientServed(Mode mode) throws Exception {
    List<Socket> flood = new ArrayList<>();
    try (NettyThriftServer server = start(serverConfig(mode));
        ClientTransportFactory clients = ClientTransportFactory.create(config(mode, false).build())) {
      int threadsBefore = Thread.activeCount();
      for (int i = 0; i < FLOOD; i++) {
        flood.add(new Socket("127.0.0.1", server.port()));
      }
      boolean handshakes = mode != Mode.NONE;
      // Handshaking peers beyond the limit pushed out older ones; without a handshake every peer is served.
      Await.until("server.connections() == (handshakes ? MAX_UNAUTHENTICATED : FLOOD)", WAIT,
          () -> server.connections() == (handshakes ? MAX_UNAUTHENTICATED : FLOOD));
      assertEquals(handshakes ? MAX_UNAUTHENTICATED : 0, server.unauthenticatedConnections());
      int grew = Thread.activeCount() - threadsBefore;
      assertTrue(grew < 10, "threads grew by " + grew);
      assertServed(clients, server);
    } finally {
      for (Socket socket : flood) {
        socket.close();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Mode.class, names = {"NONE", "TLS", "TLS_CONSCRYPT", "SASL"})
  void peersDeclaringTheLargestLengthsAndTricklingCostWhatTheySent(Mode mode) throws Exception {
    byte[] header = declaredMaximum(mode);
    List<Socket> tricklers = new ArrayList<>();
    try (NettyThriftServer server = start(serverConfig(mode).toBuilder().maxUnauthenticatedConnections(1000)
        .build());
        ClientTransportFactory clients = ClientTransportFactory.create(config(mode, false).build())) {
      assertServed(clients, server);
      long heapBefore = allocatedByAllThreads();
      long heldBefore = heldBytes();
      for (int i = 0; i < TRICKLERS; i++) {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setTcpNoDelay(true);
        tricklers.add(socket);
        socket.getOutputStream().write(header);
      }
      for (int round = 0; round < TRICKLED_BYTES; round++) {
        for (Socket socket : tricklers) {
          OutputStream out = socket.getOutputStream();
          out.write(0);
          out.flush();
        }
      }
      // The legitimate client's handshake and call take several turns of every event loop, and each turn reads what
      // every ready connection has received: by the time it is answered the trickled bytes have been read.
      assertServed(clients, server);
      long heap = allocatedByAllThreads() - heapBefore;
      long held = heldBytes() - heldBefore;
      Await.until("server.connections() == TRICKLERS", WAIT, () -> server.connections() == TRICKLERS);
      assertTrue(held < HELD_BOUND, mode + ": " + TRICKLERS + " tricklers made the server hold " + held
          + " bytes of buffers");
      assertTrue(heap < HEAP_BOUND, mode + ": " + TRICKLERS + " tricklers cost " + heap + " heap bytes");
    } finally {
      for (Socket socket : tricklers) {
        socket.close();
      }
    }
  }

  /**
   * The start of a message of the largest size the server accepts: a 16 MiB frame header, a SASL START declaring a
   * 64 KiB mechanism name, or a TLS handshake record declaring the largest record.
   */
  private static byte[] declaredMaximum(Mode mode) {
    switch (mode) {
      case NONE:
        return ByteBuffer.allocate(4).putInt((16 << 20) - 4).array();
      case SASL:
        return ByteBuffer.allocate(5).put((byte) 1).putInt(64 * 1024).array();
      case TLS:
      case TLS_CONSCRYPT:
        return new byte[] {0x16, 0x03, 0x01, 0x40, 0x00};
      default:
        throw new IllegalArgumentException(mode.toString());
    }
  }

  private static void assertServed(ClientTransportFactory clients, NettyThriftServer server) throws IOException,
      TException {
    try (SecuredTransport transport = clients.open("localhost", server.port())) {
      EchoService.Client client = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
      byte[] payload = new byte[10_000];
      ByteBuffer echoed = client.echo(ByteBuffer.wrap(payload));
      byte[] got = new byte[echoed.remaining()];
      echoed.get(got);
      assertArrayEquals(payload, got);
    }
  }

  /** Bytes allocated so far on the heap by every live thread: the event loops, the pools and this test. */
  private static long allocatedByAllThreads() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds())).filter(b -> b > 0).sum();
  }

  /**
   * Bytes of buffers handed out and not yet given back by Netty's default allocator, the one the server's
   * connections use (its thread caches count as handed out). Counted per chunk as its size less its free bytes: an
   * arena's active bytes count whole 4 MiB chunks, so they grew by a chunk whenever a test happened to be the first
   * to need one, which depended on the tests that ran before it in the JVM.
   */
  private static long heldBytes() {
    PooledByteBufAllocatorMetric metric = ((PooledByteBufAllocator) ByteBufAllocator.DEFAULT).metric();
    return Stream.concat(metric.directArenas().stream(), metric.heapArenas().stream())
        .flatMap(arena -> arena.chunkLists().stream()).flatMap(list -> StreamSupport.stream(list.spliterator(), false))
        .mapToLong(chunk -> chunk.chunkSize() - chunk.freeBytes()).sum();
  }
}
