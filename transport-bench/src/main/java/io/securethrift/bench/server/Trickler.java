package io.securethrift.bench.server;

import io.securethrift.harness.BenchMode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Peers that open connections and never finish a handshake: each sends the start of a plausible first message (a
 * TLS record header, a SASL START declaring a long mechanism name) one byte per round, from one thread over
 * non-blocking sockets. A peer the server closes connects again a second later, as a determined attacker would,
 * so the flood keeps its size however the server sheds it.
 */
final class Trickler implements AutoCloseable {
  private static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final InetSocketAddress server;
  private final byte[] prefix;
  private final SocketChannel[] peers;
  private final int[] sent;
  private final long[] closedAt;
  private final long roundNanos;
  private final Thread thread;
  private final CountDownLatch connected = new CountDownLatch(1);
  private volatile boolean running = true;
  private volatile long reconnects;

  Trickler(InetSocketAddress server, byte[] prefix, int peers, Duration round) {
    this.server = server;
    this.prefix = prefix.clone();
    this.peers = new SocketChannel[peers];
    this.sent = new int[peers];
    this.closedAt = new long[peers];
    this.roundNanos = round.toNanos();
    this.thread = new Thread(this::run, "trickler");
    thread.setDaemon(true);
  }

  /** What a peer of {@code mode} sends, a byte at a time; nothing a server could complete within a benchmark. */
  static byte[] prefix(BenchMode mode) {
    if (mode.tls()) {
      // A handshake record of 16 KiB: the server waits for the whole record before its engine sees a byte.
      return new byte[] {0x16, 0x03, 0x01, 0x40, 0x00, 0x01};
    }
    // A Thrift SASL START whose mechanism name is 60,000 bytes long (under the 64 KiB negotiation limit).
    return new byte[] {0x01, 0x00, 0x00, (byte) 0xea, 0x60, 'D', 'I', 'G', 'E', 'S', 'T'};
  }

  /** Connects every peer, starts trickling, and returns once all have connected once. */
  Trickler start() throws InterruptedException {
    thread.start();
    connected.await();
    return this;
  }

  /** Connections the server closed and the flood opened again. */
  long reconnects() {
    return reconnects;
  }

  private void run() {
    for (int i = 0; i < peers.length && running; i++) {
      connect(i);
    }
    connected.countDown();
    ByteBuffer one = ByteBuffer.allocate(1);
    ByteBuffer sink = ByteBuffer.allocate(512);
    while (running) {
      long roundStart = System.nanoTime();
      for (int i = 0; i < peers.length && running; i++) {
        if (peers[i] == null) {
          if (System.nanoTime() - closedAt[i] > RECONNECT_NANOS) {
            connect(i);
            reconnects++;
          }
          continue;
        }
        try {
          sink.clear();
          if (peers[i].read(sink) < 0) {
            throw new IOException("closed by the server");
          }
          one.clear();
          one.put(sent[i] < prefix.length ? prefix[sent[i]] : 0).flip();
          peers[i].write(one);
          sent[i]++;
        } catch (IOException e) {
          drop(i);
        }
      }
      long left = roundNanos - (System.nanoTime() - roundStart);
      if (left > 0) {
        // Pacing is the point: a trickle, not a stream.
        LockSupport.parkNanos(left);
      }
    }
    for (int i = 0; i < peers.length; i++) {
      drop(i);
    }
  }

  private void connect(int i) {
    try {
      SocketChannel peer = SocketChannel.open(server);
      peer.configureBlocking(false);
      // Closed with a reset: a flood must not leave the client side's ports in TIME_WAIT.
      peer.setOption(StandardSocketOptions.SO_LINGER, 0);
      peers[i] = peer;
      sent[i] = 0;
    } catch (IOException e) {
      peers[i] = null;
      closedAt[i] = System.nanoTime();
    }
  }

  private void drop(int i) {
    if (peers[i] != null) {
      try {
        peers[i].close();
      } catch (IOException ignored) {
        // Gone either way.
      }
      peers[i] = null;
      closedAt[i] = System.nanoTime();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join();
  }
}
