package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.ServerLimits;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts connections against the server's limits: all of them, those not yet authenticated, and those of each remote
 * address. A connection over a limit is closed at once; the WARN naming the limit is logged at most once per limit
 * every {@value #WARN_INTERVAL_MILLIS} ms, so a flood cannot flood the log too.
 */
final class Admission {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);
  private static final long WARN_INTERVAL_MILLIS = 10_000;
  private static final AttributeKey<Boolean> UNAUTHENTICATED = AttributeKey.valueOf("securethrift.unauthenticated");

  private final ServerLimits limits;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger unauthenticated = new AtomicInteger();
  private final ConcurrentMap<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicLong> lastWarned = new ConcurrentHashMap<>();

  Admission(ServerLimits limits) {
    this.limits = limits;
  }

  /** Counts a new connection; false (nothing counted) when a limit refuses it. */
  boolean admit(Channel channel) {
    InetAddress address = ((InetSocketAddress) channel.remoteAddress()).getAddress();
    if (connections.incrementAndGet() > limits.maxConnections()) {
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_CONNECTIONS, channel);
    }
    if (unauthenticated.incrementAndGet() > limits.maxUnauthenticatedConnections()) {
      unauthenticated.decrementAndGet();
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_UNAUTHENTICATED, channel);
    }
    AtomicInteger count = perAddress.computeIfAbsent(address, a -> new AtomicInteger());
    if (count.incrementAndGet() > limits.maxConnectionsPerAddress()) {
      release(address, count);
      unauthenticated.decrementAndGet();
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_PER_ADDRESS, channel);
    }
    channel.attr(UNAUTHENTICATED).set(Boolean.TRUE);
    channel.closeFuture().addListener(closed -> {
      if (channel.attr(UNAUTHENTICATED).getAndSet(null) != null) {
        unauthenticated.decrementAndGet();
      }
      release(address, count);
      connections.decrementAndGet();
    });
    return true;
  }

  /** The connection completed its handshakes and no longer counts against the unauthenticated limit. */
  void authenticated(Channel channel) {
    if (channel.attr(UNAUTHENTICATED).getAndSet(null) != null) {
      unauthenticated.decrementAndGet();
    }
  }

  private void release(InetAddress address, AtomicInteger count) {
    if (count.decrementAndGet() == 0) {
      perAddress.remove(address, count);
    }
  }

  int connections() {
    return connections.get();
  }

  int unauthenticated() {
    return unauthenticated.get();
  }

  private boolean refused(ConfigProperty limit, Channel channel) {
    String peer = String.valueOf(channel.remoteAddress());
    warn(limit.key(), peer);
    AuthOutcomes.failed(peer, AuthOutcomes.Stage.ADMISSION, limit.key() + " reached");
    return false;
  }

  /** One WARN per limit and interval; the others of the interval at DEBUG. */
  private void warn(String limit, Object peer) {
    long now = System.currentTimeMillis();
    AtomicLong last = lastWarned.computeIfAbsent(limit, k -> new AtomicLong(now - WARN_INTERVAL_MILLIS));
    long previous = last.get();
    if (now - previous >= WARN_INTERVAL_MILLIS && last.compareAndSet(previous, now)) {
      LOG.warn("closed connection from {}: {} reached (further refusals for {} s logged at DEBUG)", peer, limit,
          WARN_INTERVAL_MILLIS / 1000);
    } else {
      LOG.debug("closed connection from {}: {} reached", peer, limit);
    }
  }
}
