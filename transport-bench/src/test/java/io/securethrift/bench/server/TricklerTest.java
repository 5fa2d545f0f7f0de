package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pre-authentication flood on real loopback sockets: every peer connects, sends its mode's first message one byte
 * at a time and nothing that ever completes it, and a peer the server closes comes back.
 */
class TricklerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void aTlsPeerDeclaresAWholeRecordItNeverSends() {
    byte[] tls = Trickler.prefix(ServerModes.TLS);
    assertEquals(0x16, tls[0], "a handshake record");
    assertEquals(0x03, tls[1], "of TLS");
    assertEquals(0x4000, ByteBuffer.wrap(tls, 3, 2).getShort() & 0xffff, "16 KiB long: the largest record");
    assertEquals(6, tls.length);
  }

  @Test
  void aSaslPeerDeclaresAMechanismNameJustUnderTheNegotiationLimit() {
    byte[] sasl = Trickler.prefix(ServerModes.MODES.parse("mode", "sasl-auth"));
    assertEquals(0x01, sasl[0], "START");
    int length = ByteBuffer.wrap(sasl, 1, 4).getInt();
    assertEquals(60_000, length);
    assertTrue(length < 64 * 1024, "under the 64 KiB limit, so the server must wait for it");
    assertEquals("DIGEST", new String(sasl, 5, sasl.length - 5, java.nio.charset.StandardCharsets.US_ASCII));
  }

  @Test
  void everyPeerTricklesThePrefixThenZerosAndComesBackWhenClosed() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout((int) WAIT.toMillis());
      byte[] prefix = {1, 2, 3, 4};
      List<Socket> accepted = new ArrayList<>();
      try (Trickler flood = new Trickler(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          listener.getLocalPort()), prefix, 3, Duration.ofMillis(1)).start()) {
        for (int i = 0; i < 3; i++) {
          accepted.add(listener.accept());
        }
        for (Socket peer : accepted) {
          peer.setSoTimeout((int) WAIT.toMillis());
          byte[] first = new byte[6];
          new DataInputStream(peer.getInputStream()).readFully(first);
          assertArrayEquals(new byte[] {1, 2, 3, 4, 0, 0}, first, "the prefix, then zeros: never a whole message");
        }
        assertEquals(0, flood.reconnects());

        accepted.get(1).close();
        Socket again = listener.accept();
        accepted.add(again);
        again.setSoTimeout((int) WAIT.toMillis());
        byte[] restart = new byte[4];
        new DataInputStream(again.getInputStream()).readFully(restart);
        assertArrayEquals(prefix, restart, "a peer that comes back starts its message again");
        Await.until("the reconnect to be counted", WAIT, () -> flood.reconnects() == 1);
      } finally {
        for (Socket s : accepted) {
          s.close();
        }
      }
    }
  }

  @Test
  void closingTheFloodClosesEveryPeer() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout((int) WAIT.toMillis());
      List<Socket> accepted = new ArrayList<>();
      Trickler flood = new Trickler(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()),
          new byte[] {9}, 2, Duration.ofMillis(1)).start();
      try {
        accepted.add(listener.accept());
        accepted.add(listener.accept());
        flood.close();
        for (Socket peer : accepted) {
          peer.setSoTimeout((int) WAIT.toMillis());
          assertTrue(drainsToEnd(peer), "the peer's connection ended");
        }
      } finally {
        flood.close();
        for (Socket s : accepted) {
          s.close();
        }
      }
    }
  }

  /** Reads until the connection ends; true when it did (an orderly close or a reset), false on the read timeout. */
  private static boolean drainsToEnd(Socket peer) {
    try {
      while (peer.getInputStream().read() >= 0) {
        // The bytes sent before the close.
      }
      return true;
    } catch (java.net.SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }
}
