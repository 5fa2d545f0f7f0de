package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit.Stage;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.internal.ConnectionRate;
import io.securethrift.core.spi.HandshakeFailure;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts connections against the server's limits: the rate of new ones ({@link ConnectionRate}), all of them, those not
 * yet authenticated, and those of each remote address (grouped by {@link ConnectionRate#group}: an IPv4 address, or
 * an IPv6 prefix of {@code securethrift.server.address.ipv6.prefix} bits). A connection over the rate, total,
 * per-address or per-address unauthenticated limit is closed at once and audited as {@code over-limit} with the
 * limit's key; the audit's rate limit keeps a flood from flooding the main log too.
 *
 * <p>At the unauthenticated limit the new connection is admitted and the oldest connection still in its handshakes,
 * from the address that holds the most of them, is closed instead. Refusing the newcomer would let peers that open
 * connections and then trickle bytes (or send nothing) lock every legitimate client out until their handshake
 * deadlines pass; evicting the oldest of all would let one address that churns connections evict every other
 * address's handshakes. A legitimate handshake takes milliseconds, so it is never the oldest of the largest holder
 * for long, and the per-address unauthenticated limit keeps any one address well below the pool.
 */
final class Admission {
  /** Tells a connection's handler it was closed to make room: it audits the eviction and closes. */
  static final Object EVICTED = new Object() {
    @Override
    public String toString() {
      return "evicted";
    }
  };

  private final ServerLimits limits;
  /** The connection rate limits; null when both are off. */
  private final ConnectionRate rate;
  private final AtomicInteger connections = new AtomicInteger();
  /** Open connections per address; an entry exists only while its count is positive. */
  private final ConcurrentMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
  /** Connections not yet authenticated, per address, each set oldest first. Guarded by itself. */
  private final Map<InetAddress, LinkedHashSet<Channel>> unauthenticated = new HashMap<>();
  /** How many connections {@link #unauthenticated} holds. Guarded by it. */
  private int unauthenticatedCount;
  private final HandshakeAudit audit;
  /** The first layer a connection meets, which an admission refusal is counted under. */
  private final Stage stage;

  Admission(ServerLimits limits, HandshakeAudit audit, Stage stage) {
    this.limits = limits;
    this.rate = ConnectionRate.of(limits);
    this.audit = audit;
    this.stage = stage;
  }

  /**
   * The connection rate limits, on the listening channel: each accepted connection is checked there, on the accept
   * thread, before it is registered with an event loop, and one over the rate is closed and audited without ever
   * reaching the loops that run handshakes. A flood over the rate costs a lookup and a compare-and-set per connection,
   * and the audit line.
   */
  ChannelHandler rateGate() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object accepted) {
        Channel channel = (Channel) accepted;
        ConfigProperty over = rate == null ? null : rate.admit(addressOf(channel));
        if (over == null) {
          ctx.fireChannelRead(accepted);
        } else {
          channel.unsafe().closeForcibly();
          refused(over, channel);
        }
      }
    };
  }

  /**
   * Counts a new connection; false (nothing counted) when a limit refuses it. At the unauthenticated limit the
   * oldest unauthenticated connection of the address holding the most is told to close ({@link #EVICTED}).
   */
  boolean admit(Channel channel) {
    InetAddress address = addressOf(channel);
    if (connections.incrementAndGet() > limits.maxConnections()) {
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_CONNECTIONS, channel);
    }
    if (!reserve(address)) {
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_PER_ADDRESS, channel);
    }
    Channel evicted = null;
    synchronized (unauthenticated) {
      LinkedHashSet<Channel> own = unauthenticated.computeIfAbsent(address, a -> new LinkedHashSet<>());
      if (own.size() >= limits.maxUnauthenticatedConnectionsPerAddress()) {
        if (own.isEmpty()) {
          unauthenticated.remove(address);
        }
        release(address);
        connections.decrementAndGet();
        return refused(ConfigProperty.SERVER_MAX_UNAUTHENTICATED_PER_ADDRESS, channel);
      }
      if (unauthenticatedCount >= limits.maxUnauthenticatedConnections()) {
        evicted = evictFromLargestHolder();
      }
      own.add(channel);
      unauthenticatedCount++;
    }
    if (evicted != null) {
      Channel victim = evicted;
      // On the victim's own event loop, where its handler runs; the handler audits it as over-limit and closes.
      victim.eventLoop().execute(() -> victim.pipeline().fireUserEventTriggered(EVICTED));
    }
    channel.closeFuture().addListener(closed -> {
      authenticated(channel);
      release(address);
      connections.decrementAndGet();
    });
    return true;
  }

  /** The oldest unauthenticated connection of the address holding the most, taken out of the count. */
  private Channel evictFromLargestHolder() {
    Map.Entry<InetAddress, LinkedHashSet<Channel>> largest = null;
    for (Map.Entry<InetAddress, LinkedHashSet<Channel>> e : unauthenticated.entrySet()) {
      if (largest == null || e.getValue().size() > largest.getValue().size()) {
        largest = e;
      }
    }
    Iterator<Channel> oldest = largest.getValue().iterator();
    Channel victim = oldest.next();
    oldest.remove();
    if (largest.getValue().isEmpty()) {
      unauthenticated.remove(largest.getKey());
    }
    unauthenticatedCount--;
    return victim;
  }

  /** The connection completed its handshakes and no longer counts against the unauthenticated limits. */
  void authenticated(Channel channel) {
    InetAddress address = addressOf(channel);
    synchronized (unauthenticated) {
      LinkedHashSet<Channel> own = unauthenticated.get(address);
      if (own != null && own.remove(channel)) {
        unauthenticatedCount--;
        if (own.isEmpty()) {
          unauthenticated.remove(address);
        }
      }
    }
  }

  /** Counts one more connection from {@code address} unless it has its limit already; atomic per address. */
  private boolean reserve(InetAddress address) {
    boolean[] reserved = {false};
    perAddress.compute(address, (a, count) -> {
      int open = count == null ? 0 : count;
      if (open >= limits.maxConnectionsPerAddress()) {
        return count;
      }
      reserved[0] = true;
      return open + 1;
    });
    return reserved[0];
  }

  private void release(InetAddress address) {
    perAddress.computeIfPresent(address, (a, count) -> count == 1 ? null : count - 1);
  }

  /** The address a connection counts under: an IPv4 address, or the configured prefix of an IPv6 one. */
  private InetAddress addressOf(Channel channel) {
    return ConnectionRate.group(((InetSocketAddress) channel.remoteAddress()).getAddress(), limits.ipv6Prefix());
  }

  int connections() {
    return connections.get();
  }

  int unauthenticated() {
    synchronized (unauthenticated) {
      return unauthenticatedCount;
    }
  }

  /** Why an evicted connection was closed, for its audit line. */
  HandshakeFailure evictionFailure() {
    return new HandshakeFailure(AuthFailure.OVER_LIMIT, ConfigProperty.SERVER_MAX_UNAUTHENTICATED.key()
        + " reached; the oldest connection still in its handshakes, from the address holding the most, was closed to"
        + " admit a new one", null);
  }

  private boolean refused(ConfigProperty limit, Channel channel) {
    audit.failed(channel.remoteAddress(), stage, ConnectionRate.refusal(limit), Duration.ZERO);
    return false;
  }
}
