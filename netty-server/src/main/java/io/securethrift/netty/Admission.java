package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.securethrift.core.AuthFailure;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.HandshakeAudit;
import io.securethrift.core.HandshakeAudit.Stage;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.spi.HandshakeFailure;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts connections against the server's limits: all of them, those not yet authenticated, and those of each remote
 * address. A connection over a limit is closed at once and audited as {@code over-limit} with the limit's key; the
 * audit's rate limit keeps a flood from flooding the main log too.
 */
final class Admission {
  private static final AttributeKey<Boolean> UNAUTHENTICATED = AttributeKey.valueOf("securethrift.unauthenticated");

  private final ServerLimits limits;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger unauthenticated = new AtomicInteger();
  private final ConcurrentMap<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
  private final HandshakeAudit audit;
  /** The first layer a connection meets, which an admission refusal is counted under. */
  private final Stage stage;

  Admission(ServerLimits limits, HandshakeAudit audit, Stage stage) {
    this.limits = limits;
    this.audit = audit;
    this.stage = stage;
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
    audit.failed(channel.remoteAddress(), stage, new HandshakeFailure(AuthFailure.OVER_LIMIT, limit.key()
        + " reached; the connection was closed at once", null), Duration.ZERO);
    return false;
  }
}
