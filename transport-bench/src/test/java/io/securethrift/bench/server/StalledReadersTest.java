package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoService;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;

/**
 * The stall scenario's peers on real loopback sockets: the call they pipeline is one framed 1 MiB echo call, a peer
 * writes it to a server that does not read, and {@code peers_closed} counts a peer as closed on the end of its stream
 * or a reset, never while it is merely quiet.
 */
class StalledReadersTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void theCallIsOneFramedCompactEchoOfOneMebibyte() throws Exception {
    byte[] call = StalledReaders.call();
    int length = ByteBuffer.wrap(call).getInt();
    assertEquals(call.length - 4, length, "the frame's length is what follows it");
    assertTrue(length > StalledReaders.CALL_BYTES && length < StalledReaders.CALL_BYTES + 64, "payload and header");

    TCompactProtocol in = new TCompactProtocol(new TMemoryInputTransport(call, 4, length));
    TMessage message = in.readMessageBegin();
    assertEquals("echo", message.name);
    assertEquals(TMessageType.CALL, message.type);
    EchoService.echo_args args = new EchoService.echo_args();
    args.read(in);
    in.readMessageEnd();
    assertEquals(StalledReaders.CALL_BYTES, args.payload.remaining());
    assertTrue(allZero(args.payload), "an allocated buffer: zeros");
    assertArrayEquals(call, StalledReaders.call(), "every peer sends the same bytes");
  }

  @Test
  void aStalledPeerWritesItsCallsToAServerThatNeverReadsAndStopsWhenClosed() throws Exception {
    byte[] call = StalledReaders.call();
    try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout((int) WAIT.toMillis());
      Set<Thread> before = Thread.getAllStackTraces().keySet();
      try (Socket peer = StalledReaders.stall(listener.getLocalPort(), call);
          Socket accepted = listener.accept()) {
        assertTrue(peer.isConnected());
        accepted.setSoTimeout((int) WAIT.toMillis());
        byte[] first = new byte[4 + 1024];
        new DataInputStream(accepted.getInputStream()).readFully(first);
        assertArrayEquals(Arrays.copyOf(call, first.length), first, "the call's first bytes, framing first");
        Thread writer = writerThread(before);
        assertTrue(writer != null && writer.isDaemon(), "the peer writes on a daemon thread of its own");
        assertFalse(StalledReaders.closedByServer(peer), "a server that only stops reading has closed nothing");
        peer.close();
        Await.until("the peer's writer to stop once its socket is closed", WAIT, () -> !writer.isAlive());
      }
    }
  }

  @Test
  void aQuietOpenConnectionIsNotClosedEvenAfterPartsOfReplies() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        Socket server = listener.accept()) {
      assertFalse(StalledReaders.closedByServer(client), "nothing sent, nothing closed");
      server.getOutputStream().write(new byte[100_000]);
      server.getOutputStream().flush();
      assertFalse(StalledReaders.closedByServer(client), "a part of a reply drained, the connection still open");
    }
  }

  @Test
  void anEndOfStreamAfterReplyBytesIsAClose() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
      Socket server = listener.accept();
      server.getOutputStream().write(new byte[200_000]);
      server.close();
      Await.until("the peer to see the server's close behind the reply bytes", WAIT,
          () -> StalledReaders.closedByServer(client));
      assertTrue(StalledReaders.closedByServer(client), "a closed connection stays closed");
    }
  }

  @Test
  void aResetIsAClose() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
      Socket server = listener.accept();
      server.setSoLinger(true, 0);
      server.close();
      Await.until("the peer to see the reset", WAIT, () -> StalledReaders.closedByServer(client));
    }
  }

  /** The peer's writer: the stalled-peer thread that was not there before. */
  private static Thread writerThread(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("stalled-peer")
        && !before.contains(t)).findFirst().orElse(null);
  }

  private static boolean allZero(ByteBuffer b) {
    for (int i = b.position(); i < b.limit(); i++) {
      if (b.get(i) != 0) {
        return false;
      }
    }
    return true;
  }
}
