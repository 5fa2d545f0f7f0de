package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The handshake deadline on real loopback sockets: it closes what overran it, and only that. */
class SocketDeadlineTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void closeSockets() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
  }

  /** The server end of a new loopback connection (its client end is closed after the test too). */
  private Socket connection() throws IOException {
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Socket client = new Socket();
      sockets.add(client);
      client.connect(new InetSocketAddress(listening.getInetAddress(), listening.getLocalPort()));
      Socket server = listening.accept();
      sockets.add(server);
      return server;
    }
  }

  @Test
  void closesTheSocketOnceTheDeadlinePasses() throws IOException {
    Socket socket = connection();
    long start = System.nanoTime();
    SocketDeadline deadline = SocketDeadline.arm(socket, Duration.ofMillis(200));
    Await.until("the overdue socket's close", WAIT, socket::isClosed);
    assertTrue(System.nanoTime() - start >= Duration.ofMillis(200).toNanos(), "closed before its deadline");
    assertTrue(deadline.expired());
    deadline.close();
  }

  @Test
  void aDisarmedDeadlineLeavesTheSocketOpen() throws IOException {
    Socket finished = connection();
    SocketDeadline disarmed = SocketDeadline.arm(finished, Duration.ofMillis(100));
    disarmed.close();
    // Armed after the disarmed one with the same timeout, so once it has fired the first one's time has passed too.
    Socket overdue = connection();
    SocketDeadline later = SocketDeadline.arm(overdue, Duration.ofMillis(100));
    Await.until("the later deadline's close", WAIT, overdue::isClosed);
    assertTrue(later.expired());
    assertFalse(finished.isClosed(), "a finished handshake's socket was closed");
    assertFalse(disarmed.expired());
  }

  @Test
  void anEarlierDeadlineArmedAfterALaterOneFiresOnTime() throws IOException {
    Socket patient = connection();
    SocketDeadline hour = SocketDeadline.arm(patient, Duration.ofHours(1));
    Socket hasty = connection();
    SocketDeadline short1 = SocketDeadline.arm(hasty, Duration.ofMillis(100));
    Await.until("the shorter deadline's close", WAIT, hasty::isClosed);
    assertTrue(short1.expired());
    assertFalse(patient.isClosed());
    hour.close();
    assertFalse(hour.expired());
  }

  @Test
  void manyDisarmedDeadlinesDoNotHoldUpAnArmedOne() throws IOException {
    Socket finished = connection();
    for (int i = 0; i < 3 * SocketDeadline.SWEEP_EVERY; i++) {
      SocketDeadline.arm(finished, Duration.ofMillis(50)).close();
    }
    Socket overdue = connection();
    SocketDeadline armed = SocketDeadline.arm(overdue, Duration.ofMillis(100));
    for (int i = 0; i < 3 * SocketDeadline.SWEEP_EVERY; i++) {
      SocketDeadline.arm(finished, Duration.ofMillis(50)).close();
    }
    Await.until("the armed deadline's close", WAIT, overdue::isClosed);
    assertTrue(armed.expired());
    assertFalse(finished.isClosed(), "a disarmed deadline closed its socket");
  }
}
