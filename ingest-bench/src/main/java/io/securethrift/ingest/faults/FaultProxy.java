package io.securethrift.ingest.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy on loopback that forwards bytes between clients and a target server and injects the faults of a bad
 * network on command: {@link #cutAll() cut} every connection (a TCP reset), {@link #stall stall} all forwarding for a
 * while, {@link #delay delay} every chunk, {@link #truncateAfter truncate} connections after some bytes, or cut
 * chunks at random ({@link #lossy}). The target can be changed while it runs ({@link #target}), so clients keep one
 * address while the server behind it is restarted on another port.
 *
 * <p>The bytes are never parsed, only counted and copied through a fixed 16 KiB buffer per direction, so whatever a
 * peer sends costs the proxy no more than that; connections beyond {@code maxConnections} are refused (closed at
 * once). Two daemon threads per connection; {@link #close()} ends them all.
 */
public final class FaultProxy implements AutoCloseable {
  private static final int BUFFER = 16 * 1024;

  private final ServerSocket listener;
  private final int maxConnections;
  private final Set<Link> links = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private final AtomicLong cuts = new AtomicLong();
  private final AtomicLong connections = new AtomicLong();
  private final AtomicLong forwarded = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition unstalled = lock.newCondition();

  private volatile InetSocketAddress target;
  private volatile long delayNanos;
  private volatile long truncateAfter = -1;
  private volatile double cutProbability;
  private final SplittableRandom random;
  /** Guarded by lock: forwarding waits until System.nanoTime() passes it. */
  private long stalledUntil;
  private boolean stalled;
  private volatile boolean closed;

  private FaultProxy(ServerSocket listener, InetSocketAddress target, int maxConnections, long seed) {
    this.listener = listener;
    this.target = target;
    this.maxConnections = maxConnections;
    this.random = new SplittableRandom(seed);
    this.acceptor = new Thread(this::acceptLoop, "fault-proxy-" + listener.getLocalPort());
    acceptor.setDaemon(true);
  }

  /**
   * Starts a proxy on a free loopback port forwarding to {@code target}.
   *
   * @param maxConnections connections held at once; more are closed on accept
   * @param seed for {@link #lossy}, so a run's random cuts can be repeated
   */
  public static FaultProxy start(InetSocketAddress target, int maxConnections, long seed) throws IOException {
    Objects.requireNonNull(target, "target");
    if (maxConnections < 1) {
      throw new IllegalArgumentException("fault proxy max connections must be at least 1, was " + maxConnections);
    }
    ServerSocket listener = new ServerSocket();
    try {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    } catch (IOException e) {
      listener.close();
      throw e;
    }
    FaultProxy proxy = new FaultProxy(listener, target, maxConnections, seed);
    proxy.acceptor.start();
    return proxy;
  }

  /** The port clients connect to. */
  public int port() {
    return listener.getLocalPort();
  }

  /** Where new connections go from now on; connections already forwarded keep their server. */
  public void target(InetSocketAddress newTarget) {
    this.target = Objects.requireNonNull(newTarget, "target");
  }

  /** Resets every connection now, as a crashed router or a killed peer does. */
  public void cutAll() {
    for (Link link : links) {
      link.cut();
    }
  }

  /** Stops forwarding in both directions for {@code duration}; connections stay open, bytes wait. */
  public void stall(Duration duration) {
    long nanos = nonNegative(duration, "stall").toNanos();
    lock.lock();
    try {
      stalled = true;
      stalledUntil = System.nanoTime() + nanos;
    } finally {
      lock.unlock();
    }
  }

  /** Holds every chunk for {@code perChunk} before forwarding it; zero for none. */
  public void delay(Duration perChunk) {
    this.delayNanos = nonNegative(perChunk, "delay").toNanos();
  }

  /** Cuts each new connection once it has forwarded {@code bytes} (in either direction); negative for never. */
  public void truncateAfter(long bytes) {
    this.truncateAfter = bytes;
  }

  /** Cuts a connection at a forwarded chunk with {@code probability}, from 0 (never) to 1. */
  public void lossy(double probability) {
    if (!(probability >= 0 && probability <= 1)) {
      throw new IllegalArgumentException("fault proxy cut probability must be from 0 to 1, was " + probability);
    }
    this.cutProbability = probability;
  }

  /** Forwards faithfully again: no delay, truncation, random cuts or stall. */
  public void heal() {
    delay(Duration.ZERO);
    truncateAfter(-1);
    lossy(0);
    lock.lock();
    try {
      stalled = false;
      unstalled.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Connections cut so far, by command, truncation or chance. */
  public long cuts() {
    return cuts.get();
  }

  /** Bytes forwarded so far, both directions: how far a run through the proxy has got. */
  public long forwarded() {
    return forwarded.get();
  }

  /** Connections accepted so far. */
  public long connections() {
    return connections.get();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return;
      }
      if (links.size() >= maxConnections) {
        closeQuietly(client);
        continue;
      }
      connections.incrementAndGet();
      Socket server = new Socket();
      try {
        server.connect(target, 10_000);
        if (server.getLocalSocketAddress().equals(server.getRemoteSocketAddress())) {
          // TCP's simultaneous open: with nothing listening on a loopback port, the kernel may pick that very port
          // as the source and connect the socket to itself, which would echo the client's bytes back to it.
          throw new IOException("connected to itself: nothing listens at " + target);
        }
      } catch (IOException e) {
        // The server is down (restarting): the client sees its connection reset, as it would without the proxy.
        reset(client);
        closeQuietly(server);
        continue;
      }
      Link link = new Link(client, server, truncateAfter);
      links.add(link);
      link.start();
    }
  }

  /** Waits out a stall; false if the proxy closed meanwhile. */
  private boolean awaitUnstalled() {
    lock.lock();
    try {
      while (stalled && !closed) {
        long left = stalledUntil - System.nanoTime();
        if (left <= 0) {
          stalled = false;
          break;
        }
        unstalled.awaitNanos(left);
      }
      return !closed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }

  private boolean chanceCut() {
    double p = cutProbability;
    if (p <= 0) {
      return false;
    }
    synchronized (random) {
      return random.nextDouble() < p;
    }
  }

  /** One proxied connection: two pumps, and the byte budget a truncation leaves it. */
  private final class Link {
    private final Socket client;
    private final Socket server;
    private final AtomicLong budget;
    private final AtomicLong ended = new AtomicLong();

    Link(Socket client, Socket server, long truncateAfter) {
      this.client = client;
      this.server = server;
      this.budget = new AtomicLong(truncateAfter < 0 ? Long.MAX_VALUE : truncateAfter);
    }

    void start() {
      pump(client, server, "up");
      pump(server, client, "down");
    }

    private void pump(Socket from, Socket to, String direction) {
      Thread t = new Thread(() -> forward(from, to), "fault-proxy-" + port() + "-" + from.getPort() + "-" + direction);
      t.setDaemon(true);
      t.start();
    }

    private void forward(Socket from, Socket to) {
      byte[] buffer = new byte[BUFFER];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          if (!awaitUnstalled()) {
            break;
          }
          long delay = delayNanos;
          if (delay > 0) {
            TimeUnit.NANOSECONDS.sleep(delay);
          }
          long allowed = Math.min(n, Math.max(0, budget.getAndAdd(-n)));
          out.write(buffer, 0, (int) allowed);
          out.flush();
          forwarded.addAndGet(allowed);
          if (allowed < n || chanceCut()) {
            cut();
            return;
          }
        }
        // One side closed: pass the close on, as TCP would.
        to.shutdownOutput();
      } catch (IOException e) {
        // A reset (a killed server with unread data, a cut) on one side: the other side gets a reset too, as it would
        // without the proxy, instead of waiting for a reply that cannot come.
        reset(from);
        reset(to);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        reset(from);
        reset(to);
      }
      if (ended.incrementAndGet() == 2) {
        end();
      }
    }

    void cut() {
      if (links.remove(this)) {
        cuts.incrementAndGet();
      }
      reset(client);
      reset(server);
    }

    private void end() {
      links.remove(this);
      closeQuietly(client);
      closeQuietly(server);
    }
  }

  /** Closes with SO_LINGER 0, so the peer gets a reset rather than an orderly close. */
  private static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
    } catch (SocketException alreadyClosed) {
      // Closing below is all that is left.
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Nothing left to release.
    }
  }

  private static Duration nonNegative(Duration d, String what) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException("fault proxy " + what + " must be zero or positive, was " + d);
    }
    return d;
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // The acceptor ends either way.
    }
    lock.lock();
    try {
      unstalled.signalAll();
    } finally {
      lock.unlock();
    }
    for (Link link : links) {
      link.end();
    }
    try {
      acceptor.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
