package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.StreamLayer;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.RunnableEnginesOnly;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.DataInputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link EngineSocket} on real loopback connections made by the TLS layer, with the TCP sockets' reads and writes
 * counted: how records leave and arrive per system call, closure, timeouts and handshake failures, on both engines.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class EngineSocketTest {
  private static final int RECORD = 16 * 1024;
  private static final int BATCH = EngineSocket.RECORDS_PER_BATCH * RECORD;

  private final ExecutorService serverThread = Executors.newSingleThreadExecutor();
  private final Random random = new Random(7);
  private Connection connection;

  @AfterEach
  void close() throws IOException {
    serverThread.shutdownNow();
    if (connection != null) {
      connection.close();
    }
  }

  /** The server writes first: a Conscrypt TLS 1.3 server's first write carries its session tickets as well. */
  @ParameterizedTest
  @CsvSource({"jsse, TLSv1.3", "conscrypt, TLSv1.3", "openssl, TLSv1.3", "jsse, TLSv1.2", "conscrypt, TLSv1.2",
      "openssl, TLSv1.2"})
  @ExtendWith(RunnableEnginesOnly.class)
  void eachFlushLeavesInOneWrite(TlsEngine engine, String protocol, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    connect(engine, protocol, ca.leaf().issue(), ca, dir);
    byte[] frame = bytes(57_000);
    connection.serverTcp.writes.set(0);
    assertArrayEquals(frame, send(connection.server, connection.client, frame), "the server's first write");
    assertEquals(1, connection.serverTcp.writes.get(), "writes of the server's first frame");
    connection.clientTcp.writes.set(0);
    assertArrayEquals(frame, send(connection.client, connection.server, frame), "a client's write");
    assertEquals(1, connection.clientTcp.writes.get(), "writes of the client's frame");

    connection.clientTcp.writes.set(0);
    OutputStream out = connection.client.getOutputStream();
    byte[] small = bytes(10);
    for (int i = 0; i < 3; i++) {
      out.write(small);
    }
    out.flush();
    assertEquals(1, connection.clientTcp.writes.get(), "three small writes and a flush");
    byte[] received = new byte[3 * small.length];
    new DataInputStream(connection.server.getInputStream()).readFully(received);
    for (int i = 0; i < 3; i++) {
      assertArrayEquals(small, Arrays.copyOfRange(received, i * small.length, (i + 1) * small.length));
    }
  }

  @EachTlsEngine
  void aWriteLargerThanTheBatchLeavesInBatches(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    connect(engine, "TLSv1.3", ca.leaf().issue(), ca, dir);
    byte[] large = bytes(3 * BATCH + 100);
    connection.clientTcp.writes.set(0);
    assertArrayEquals(large, send(connection.client, connection.server, large));
    assertEquals(4, connection.clientTcp.writes.get(), "three full batches and the rest");
  }

  /** Four records that arrived together are opened from one read of the socket, for large reads and 1-byte ones. */
  @EachTlsEngine
  void recordsReceivedTogetherTakeOneRead(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    connect(engine, "TLSv1.3", ca.leaf().issue(), ca, dir);
    assertArrayEquals(new byte[] {1}, send(connection.client, connection.server, new byte[] {1}));

    byte[] batch = bytes(BATCH);
    awaitBuffered(connection.client, batch);
    connection.serverTcp.reads.set(0);
    byte[] received = new byte[BATCH];
    new DataInputStream(connection.server.getInputStream()).readFully(received);
    assertArrayEquals(batch, received);
    assertEquals(1, connection.serverTcp.reads.get(), "reads of the socket for " + BATCH + " bytes in four records");

    awaitBuffered(connection.client, batch);
    connection.serverTcp.reads.set(0);
    InputStream in = connection.server.getInputStream();
    for (int i = 0; i < BATCH; i++) {
      received[i] = (byte) in.read();
    }
    assertArrayEquals(batch, received);
    assertEquals(1, connection.serverTcp.reads.get(), "reads of the socket for " + BATCH + " bytes read one by one");
  }

  /** A peer's bytes arriving a few at a time: records span many reads of the socket and are opened whole. */
  @EachTlsEngine
  void recordsSpanningReads(TlsEngine engine, TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    connect(engine, "TLSv1.3", ca.leaf().issue(), ca, dir);
    connection.serverTcp.chunk = 7;
    byte[] message = bytes(2 * RECORD + 5);
    assertArrayEquals(message, send(connection.client, connection.server, message));
    assertTrue(connection.serverTcp.reads.get() > message.length / 7, "the server read in 7-byte pieces");
  }

  @EachTlsEngine
  void closeSendsCloseNotifyAndThePeerReadsTheEnd(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    connect(engine, "TLSv1.3", ca.leaf().issue(), ca, dir);
    connection.clientTcp.writes.set(0);
    connection.client.close();
    assertEquals(1, connection.clientTcp.writes.get(), "close_notify written at close");
    assertTrue(connection.client.isClosed());
    assertEquals(-1, connection.server.getInputStream().read());
  }

  /** A read timeout leaves the connection as it was: the next read gets what the peer sends later. */
  @EachTlsEngine
  void readTimeoutKeepsTheConnection(TlsEngine engine, TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    connect(engine, "TLSv1.3", ca.leaf().issue(), ca, dir);
    connection.server.setSoTimeout(50);
    assertEquals(50, connection.serverTcp.getSoTimeout(), "the TCP socket's timeout");
    assertThrows(SocketTimeoutException.class, () -> connection.server.getInputStream().read());
    connection.server.setSoTimeout(0);
    byte[] message = bytes(RECORD + 1);
    assertArrayEquals(message, send(connection.client, connection.server, message));
  }

  /** The client refuses the server's certificate; its alert reaches the server, whose failure names it. */
  @EachTlsEngine
  void handshakeFailuresAreExplainedOnBothSides(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    ExecutionException server = assertThrows(ExecutionException.class,
        () -> connect(engine, "TLSv1.3", ca.signedByOtherCa(), ca, dir));
    HandshakeFailure serverFailure = assertInstanceOf(HandshakeFailure.class, server.getCause());
    assertEquals(AuthFailure.TLS_ALERT, serverFailure.reason());
    assertTrue(serverFailure.getMessage().contains("the client rejected this side's certificate"),
        serverFailure.getMessage());
    assertInstanceOf(IOException.class, connection.clientFailure, "the client's handshake fails too");
    String client = connection.clientFailure.getMessage();
    assertTrue(client.contains("the server's certificate is not issued by a CA in the trust store"), client);
  }

  /**
   * A peer that sends, after the handshake, a record header claiming 64 KiB (TLS allows 16 KiB and a little): the
   * server's read fails at once, without waiting for the bytes claimed, and the peer's bytes stay out of the message.
   */
  @EachTlsEngine
  void aRecordLongerThanTlsAllowsIsRefusedAtOnce(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    connect(engine, "TLSv1.3", ca.leaf().issue(), ca, dir);
    byte[] hostile = new byte[64];
    Arrays.fill(hostile, (byte) 'A');
    hostile[0] = 23;
    hostile[1] = 3;
    hostile[2] = 3;
    hostile[3] = (byte) 0xff;
    hostile[4] = (byte) 0xff;
    connection.clientTcp.delegate.getOutputStream().write(hostile);
    connection.server.setSoTimeout(10_000);
    IOException e = assertThrows(IOException.class, () -> connection.server.getInputStream().read());
    assertFalse(e instanceof SocketTimeoutException, "the server waited for the bytes the header claimed: " + e);
  }

  /** Writes {@code message} and a flush on one side and reads it whole on the other. */
  private static byte[] send(Socket from, Socket to, byte[] message) throws Exception {
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try {
      Future<?> written = writer.submit(() -> {
        from.getOutputStream().write(message);
        from.getOutputStream().flush();
        return null;
      });
      byte[] received = new byte[message.length];
      new DataInputStream(to.getInputStream()).readFully(received);
      written.get();
      return received;
    } finally {
      writer.shutdownNow();
    }
  }

  /** Sends {@code batch} from the client and waits until all of its bytes wait in the server's TCP socket. */
  private void awaitBuffered(Socket from, byte[] batch) throws Exception {
    long before = connection.clientTcp.written.get();
    from.getOutputStream().write(batch);
    from.getOutputStream().flush();
    long sent = connection.clientTcp.written.get() - before;
    InputStream raw = connection.serverTcp.delegate.getInputStream();
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (raw.available() < sent) {
      assertTrue(System.nanoTime() < giveUp, "the client's " + sent + " bytes never all reached the server's socket");
      Thread.onSpinWait();
    }
  }

  private byte[] bytes(int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }

  /** Connects a client and a server TLS layer over loopback; the server's failure, if any, is thrown. */
  private void connect(TlsEngine engine, String protocol, IssuedCertificate serverCertificate,
      TestCertificateAuthority ca, Path dir) throws Exception {
    Path trust = TlsTestConfigs.trustStore(ca, dir);
    Path store = TlsTestConfigs.keyStore(serverCertificate, dir, "server");
    StreamLayer serverLayer = new TlsLayerProvider().streamLayer(
        TlsTestConfigs.tls(engine, store, trust).tlsProtocols(List.of(protocol)).build(), Role.SERVER,
        TestIdentities.issuer()).orElseThrow();
    StreamLayer clientLayer = new TlsLayerProvider().streamLayer(
        TlsTestConfigs.tls(engine, null, trust).tlsProtocols(List.of(protocol)).build(), Role.CLIENT,
        TestIdentities.issuer()).orElseThrow();
    connection = new Connection();
    try (ServerSocket listener = new ServerSocket()) {
      // Room for a whole batch in the server's socket, so a test can wait until one has arrived.
      listener.setReceiveBufferSize(1 << 20);
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
      connection.clientTcp = new CountingSocket(new Socket(InetAddress.getLoopbackAddress(),
          listener.getLocalPort()));
      connection.serverTcp = new CountingSocket(listener.accept());
    }
    Future<Socket> server = serverThread.submit(() -> serverLayer.open(connection.serverTcp, null).socket());
    try {
      connection.client = clientLayer.open(connection.clientTcp, "localhost").socket();
    } catch (IOException e) {
      connection.clientFailure = e;
    }
    connection.server = server.get();
  }

  /** Both ends of one connection and their TCP sockets. */
  private static final class Connection {
    CountingSocket clientTcp;
    CountingSocket serverTcp;
    Socket client;
    Socket server;
    IOException clientFailure;

    void close() throws IOException {
      for (Socket s : new Socket[] {client, server, clientTcp, serverTcp}) {
        if (s != null) {
          s.close();
        }
      }
    }
  }

  /** A connected TCP socket whose stream reads and writes are counted; reads can be cut to {@link #chunk} bytes. */
  private static final class CountingSocket extends Socket {
    final Socket delegate;
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicLong written = new AtomicLong();
    volatile int chunk = Integer.MAX_VALUE;

    CountingSocket(Socket delegate) {
      this.delegate = delegate;
    }

    @Override
    public InputStream getInputStream() throws IOException {
      return new FilterInputStream(delegate.getInputStream()) {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          reads.incrementAndGet();
          return in.read(b, off, Math.min(len, chunk));
        }
      };
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
      return new FilterOutputStream(delegate.getOutputStream()) {
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          writes.incrementAndGet();
          written.addAndGet(len);
          out.write(b, off, len);
        }
      };
    }

    @Override
    public int getPort() {
      return delegate.getPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
      return delegate.getRemoteSocketAddress();
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
      delegate.setSoTimeout(timeout);
    }

    @Override
    public int getSoTimeout() throws SocketException {
      return delegate.getSoTimeout();
    }

    @Override
    public boolean isClosed() {
      return delegate.isClosed();
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }
}
