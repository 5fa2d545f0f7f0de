package io.securethrift.ingest.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault proxy over real loopback sockets, in front of an echo server. */
class FaultProxyTest {
  private Echo echo;
  private FaultProxy proxy;

  /** Echoes every byte back on each connection, until closed. */
  private static final class Echo implements AutoCloseable {
    final ServerSocket listener = new ServerSocket();

    Echo() throws IOException {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Thread t = new Thread(() -> {
        while (true) {
          try {
            Socket s = listener.accept();
            Thread c = new Thread(() -> {
              try (s) {
                s.getInputStream().transferTo(s.getOutputStream());
              } catch (IOException ended) {
                // The test cut it.
              }
            });
            c.setDaemon(true);
            c.start();
          } catch (IOException closed) {
            return;
          }
        }
      });
      t.setDaemon(true);
      t.start();
    }

    InetSocketAddress address() {
      return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
      listener.close();
    }
  }

  @BeforeEach
  void start() throws IOException {
    echo = new Echo();
    proxy = FaultProxy.start(echo.address(), 4, 1);
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  private Socket connect() throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    s.setSoTimeout(10_000);
    return s;
  }

  private static byte[] roundTrip(Socket s, byte[] data) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(data);
    out.flush();
    return s.getInputStream().readNBytes(data.length);
  }

  /** Reads until the connection ends; true if it ended with a reset rather than an orderly close. */
  private static boolean endsWithReset(Socket s) {
    try {
      InputStream in = s.getInputStream();
      while (in.read() >= 0) {
        // Drain whatever was forwarded before the end.
      }
      return false;
    } catch (IOException e) {
      return e instanceof SocketException && e.getMessage().contains("reset");
    }
  }

  @Test
  void forwardsBothWaysAndPassesACloseOn() throws IOException {
    try (Socket s = connect()) {
      byte[] data = new byte[100_000];
      Arrays.fill(data, (byte) 7);
      assertArrayEquals(data, roundTrip(s, data));
      s.shutdownOutput();
      assertEquals(-1, s.getInputStream().read(), "the echo server's close comes back through the proxy");
    }
    assertEquals(1, proxy.connections());
  }

  @Test
  void cutAllResetsEveryConnection() throws IOException {
    try (Socket a = connect(); Socket b = connect()) {
      roundTrip(a, new byte[] {1});
      roundTrip(b, new byte[] {1});
      proxy.cutAll();
      assertTrue(endsWithReset(a));
      assertTrue(endsWithReset(b));
      assertEquals(2, proxy.cuts());
    }
  }

  @Test
  void truncationForwardsOnlyTheBudgetThenResets() throws IOException {
    proxy.truncateAfter(5);
    try (Socket s = connect()) {
      s.getOutputStream().write(new byte[10]);
      assertTrue(endsWithReset(s));
      assertEquals(1, proxy.cuts());
    }
  }

  @Test
  void aResetFromTheServerReachesTheClient() throws IOException {
    try (ServerSocket resetting = new ServerSocket()) {
      resetting.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      proxy.target((InetSocketAddress) resetting.getLocalSocketAddress());
      try (Socket s = connect(); Socket accepted = resetting.accept()) {
        accepted.setSoLinger(true, 0);
        accepted.close();
        assertTrue(endsWithReset(s), "the client must not wait for a reply that cannot come");
      }
    }
  }

  @Test
  void stallHoldsBytesForItsDuration() throws IOException {
    try (Socket s = connect()) {
      roundTrip(s, new byte[] {1});
      long start = System.nanoTime();
      proxy.stall(Duration.ofMillis(300));
      roundTrip(s, new byte[] {2});
      assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos(), "forwarded before the stall ended");
    }
  }

  @Test
  void delayHoldsEveryChunk() throws IOException {
    proxy.delay(Duration.ofMillis(100));
    try (Socket s = connect()) {
      long start = System.nanoTime();
      roundTrip(s, new byte[] {1});
      // One chunk each way.
      assertTrue(System.nanoTime() - start >= Duration.ofMillis(200).toNanos());
    }
  }

  @Test
  void certainLossCutsAtTheFirstChunkAndHealRestoresForwarding() throws IOException {
    proxy.lossy(1.0);
    try (Socket s = connect()) {
      s.getOutputStream().write(1);
      assertTrue(endsWithReset(s));
    }
    proxy.heal();
    try (Socket s = connect()) {
      assertArrayEquals(new byte[] {3}, roundTrip(s, new byte[] {3}));
    }
  }

  @Test
  void newConnectionsFollowTheTargetAndADownTargetIsAReset() throws IOException {
    InetSocketAddress down;
    try (Echo other = new Echo()) {
      down = other.address();
      proxy.target(down);
      try (Socket s = connect()) {
        assertArrayEquals(new byte[] {4}, roundTrip(s, new byte[] {4}));
      }
    }
    // The JDK closes a listener whose accept() is blocked only once that thread has left it; until then the kernel
    // still completes connections into its backlog.
    Await.until("the closed echo server to refuse connections", Duration.ofSeconds(10), () -> {
      try (Socket probe = new Socket(down.getAddress(), down.getPort())) {
        return false;
      } catch (IOException refused) {
        return true;
      }
    });
    try (Socket s = connect()) {
      assertTrue(endsWithReset(s));
    }
  }

  @Test
  void connectionsBeyondTheLimitAreClosedAtOnce() throws IOException {
    Socket[] held = new Socket[4];
    try {
      for (int i = 0; i < held.length; i++) {
        held[i] = connect();
        roundTrip(held[i], new byte[] {1});
      }
      try (Socket extra = connect()) {
        assertEquals(-1, extra.getInputStream().read());
      }
    } finally {
      for (Socket s : held) {
        if (s != null) {
          s.close();
        }
      }
    }
    Await.until("the held connections to end", Duration.ofSeconds(10), () -> {
      try (Socket s = connect()) {
        return Arrays.equals(new byte[] {5}, roundTrip(s, new byte[] {5}));
      } catch (IOException e) {
        return false;
      }
    });
  }

  @Test
  void badSettingsAreRefusedWithTheirNames() {
    assertEquals("fault proxy cut probability must be from 0 to 1, was 1.5",
        assertThrows(IllegalArgumentException.class, () -> proxy.lossy(1.5)).getMessage());
    assertEquals("fault proxy stall must be zero or positive, was PT-1S",
        assertThrows(IllegalArgumentException.class, () -> proxy.stall(Duration.ofSeconds(-1))).getMessage());
    assertEquals("fault proxy max connections must be at least 1, was 0", assertThrows(
        IllegalArgumentException.class, () -> FaultProxy.start(echo.address(), 0, 1)).getMessage());
  }
}
