package io.securethrift.netty;

import io.netty.channel.Channel;
import io.securethrift.core.AuthFailure;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.HandshakeAudit;
import io.securethrift.core.HandshakeAudit.Stage;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.spi.HandshakeFailure;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts connections against the server's limits: all of them, those not yet authenticated, and those of each remote
 * address. A connection over the total or per-address limit is closed at once and audited as {@code over-limit} with
 * the limit's key; the audit's rate limit keeps a flood from flooding the main log too.
 *
 * <p>At the unauthenticated limit the new connection is admitted and the oldest connection still in its handshakes
 * is closed instead. Refusing the newcomer would let peers that open connections and then trickle bytes (or send
 * nothing) lock every legitimate client out until their handshake deadlines pass, and reconnecting keeps them there
 * for good; a legitimate handshake takes milliseconds, so it is never the oldest for long.
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
  private final AtomicInteger connections = new AtomicInteger();
  /** Connections not yet authenticated, oldest first. Guarded by itself. */
  private final LinkedHashSet<Channel> unauthenticated = new LinkedHashSet<>();
  private final ConcurrentMap<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
  private final HandshakeAudit audit;
  /** The first layer a connection meets, which an admission refusal is counted under. */
  private final Stage stage;

  Admission(ServerLimits limits, HandshakeAudit audit, Stage stage) {
    this.limits = limits;
    this.audit = audit;
    this.stage = stage;
  }

  /**
   * Counts a new connection; false (nothing counted) when the total or per-address limit refuses it. At the
   * unauthenticated limit the oldest unauthenticated connection is told to close ({@link #EVICTED}).
   */
  boolean admit(Channel channel) {
    InetAddress address = ((InetSocketAddress) channel.remoteAddress()).getAddress();
    if (connections.incrementAndGet() > limits.maxConnections()) {
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_CONNECTIONS, channel);
    }
    AtomicInteger count = perAddress.computeIfAbsent(address, a -> new AtomicInteger());
    if (count.incrementAndGet() > limits.maxConnectionsPerAddress()) {
      release(address, count);
      connections.decrementAndGet();
      return refused(ConfigProperty.SERVER_MAX_PER_ADDRESS, channel);
    }
    Channel evicted = null;
    synchronized (unauthenticated) {
      if (unauthenticated.size() >= limits.maxUnauthenticatedConnections()) {
        Iterator<Channel> oldest = unauthenticated.iterator();
        evicted = oldest.next();
        oldest.remove();
      }
      unauthenticated.add(channel);
    }
    if (evicted != null) {
      Channel victim = evicted;
      // On the victim's own event loop, where its handler runs; the handler audits it as over-limit and closes.
      victim.eventLoop().execute(() -> victim.pipeline().fireUserEventTriggered(EVICTED));
    }
    channel.closeFuture().addListener(closed -> {
      authenticated(channel);
      release(address, count);
      connections.decrementAndGet();
    });
    return true;
  }

  /** The connection completed its handshakes and no longer counts against the unauthenticated limit. */
  void authenticated(Channel channel) {
    synchronized (unauthenticated) {
      unauthenticated.remove(channel);
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
    synchronized (unauthenticated) {
      return unauthenticated.size();
    }
  }

  /** Why an evicted connection was closed, for its audit line. */
  HandshakeFailure evictionFailure() {
    return new HandshakeFailure(AuthFailure.OVER_LIMIT, ConfigProperty.SERVER_MAX_UNAUTHENTICATED.key()
        + " reached; the oldest connection still in its handshakes was closed to admit a new one", null);
  }

  private boolean refused(ConfigProperty limit, Channel channel) {
    audit.failed(channel.remoteAddress(), stage, new HandshakeFailure(AuthFailure.OVER_LIMIT, limit.key()
        + " reached; the connection was closed at once", null), Duration.ZERO);
    return false;
  }
}
