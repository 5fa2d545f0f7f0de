package io.securethrift.core.internal;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.spi.HandshakeFailure;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The connection rate limits of both server models ({@code securethrift.server.connection.rate.per.address} and
 * {@code ...rate.max}): a token bucket per remote address and one for all, each refilled at its rate with a burst of
 * one second's worth. A server asks at accept time, before it reads a byte: whether the handshake to come would be full
 * or resumed is not known yet, so every new connection counts as a full one.
 *
 * <p>Each bucket is one {@link AtomicLong} (the generic cell rate algorithm: the time at which the bucket is full
 * again), so admitting a connection takes a map lookup and a compare-and-set, with no lock. The per-address buckets
 * are checked first, so an address over its own limit spends nothing of the shared one. A bucket that is full again
 * carries nothing and is dropped by a sweep, at most once a second, when a new address arrives; at most
 * {@link #MAX_TRACKED} addresses are kept, and while that many connected within the last second (a flood of forged
 * or many addresses) the new ones share one extra bucket, so memory stays bounded and none of them goes unlimited.
 * Thread-safe.
 */
public final class ConnectionRate {
  /**
   * Addresses tracked at most. A bucket lives about a second after its last connection, so this is the number of
   * addresses that connected in the last second: far beyond the full handshakes a server makes in one (hundreds),
   * and about 3 MB of entries.
   */
  static final int MAX_TRACKED = 16_384;
  private static final long SECOND = 1_000_000_000L;

  private final Bucket all;
  /** Null when the per-address limit is off. */
  private final Map<InetAddress, Bucket> perAddress;
  private final int perAddressRate;
  private final Bucket overflow;
  private final LongSupplier nanoClock;
  private final AtomicBoolean sweeping = new AtomicBoolean();
  private final AtomicLong nextSweep;

  /**
   * @param perAddress connections per second from one address, 0 for no limit
   * @param max connections per second in all, 0 for no limit
   */
  ConnectionRate(int perAddress, int max, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.all = max == 0 ? null : new Bucket(SECOND / max, max, nanoClock.getAsLong());
    this.perAddress = perAddress == 0 ? null : new ConcurrentHashMap<>();
    this.perAddressRate = perAddress;
    this.overflow = perAddress == 0 ? null : newAddressBucket(nanoClock.getAsLong());
    this.nextSweep = new AtomicLong(nanoClock.getAsLong() + SECOND);
  }

  /** The limits of {@code limits}, on the system's clock; null when both are off. */
  public static ConnectionRate of(ServerLimits limits) {
    if (limits.connectionRatePerAddress() == 0 && limits.connectionRateMax() == 0) {
      return null;
    }
    return new ConnectionRate(limits.connectionRatePerAddress(), limits.connectionRateMax(), System::nanoTime);
  }

  /**
   * Takes a token for a new connection from {@code address} (grouped by {@link #group}); null when admitted, else the
   * setting whose limit refused it (nothing of the other limit is spent).
   */
  public ConfigProperty admit(InetAddress address) {
    long now = nanoClock.getAsLong();
    if (perAddress != null && !bucketOf(address, now).take(now)) {
      return ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS;
    }
    // A connection refused here keeps the per-address token it took: its address was connecting anyway, and
    // refunding would make the pair of checks a transaction for no gain.
    if (all != null && !all.take(now)) {
      return ConfigProperty.SERVER_CONNECTION_RATE_MAX;
    }
    return null;
  }

  private Bucket bucketOf(InetAddress address, long now) {
    Bucket bucket = perAddress.get(address);
    if (bucket != null) {
      return bucket;
    }
    sweep(now);
    if (perAddress.size() >= MAX_TRACKED) {
      return overflow;
    }
    // A sweep may drop a bucket between another thread's lookup and its take: that take then goes to a bucket that
    // was full, and the next connection starts a full one, one connection more than the limit at most.
    return perAddress.computeIfAbsent(address, a -> newAddressBucket(now));
  }

  private Bucket newAddressBucket(long now) {
    return new Bucket(SECOND / perAddressRate, perAddressRate, now);
  }

  /** Drops the buckets that are full again, at most once a second and by one thread at a time. */
  private void sweep(long now) {
    long due = nextSweep.get();
    if (now - due < 0 || !sweeping.compareAndSet(false, true)) {
      return;
    }
    try {
      perAddress.values().removeIf(b -> b.isFull(now));
      nextSweep.set(now + SECOND);
    } finally {
      sweeping.set(false);
    }
  }

  /** How many addresses have a bucket now (for tests). */
  int tracked() {
    return perAddress == null ? 0 : perAddress.size();
  }

  /** Why a connection was refused at {@code limit}, for its audit line: the cause is {@code over-limit}. */
  public static HandshakeFailure refusal(ConfigProperty limit) {
    return new HandshakeFailure(AuthFailure.OVER_LIMIT, limit.key() + " reached; the connection was closed at once",
        null);
  }

  /**
   * The address a connection counts under for per-address limits: an IPv4 address as it is, an IPv6 one as its first
   * {@code prefix} bits with the rest zero (one host usually holds a whole /64).
   */
  public static InetAddress group(InetAddress address, int prefix) {
    if (!(address instanceof Inet6Address) || prefix >= 128) {
      return address;
    }
    byte[] bytes = address.getAddress();
    for (int bit = prefix; bit < 128; bit++) {
      bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are an IPv6 address", e);
    }
  }

  /**
   * A token bucket as one number: the time at which it is full again. Taking a token moves that time one interval
   * on; the bucket is empty while it lies more than a burst's worth of intervals ahead.
   */
  private static final class Bucket {
    private final long interval;
    /** How far ahead the time may lie with a token left: {@code (burst - 1)} intervals. */
    private final long tolerance;
    private final AtomicLong fullAt;

    Bucket(long interval, int burst, long now) {
      this.interval = interval;
      this.tolerance = interval * (burst - 1);
      this.fullAt = new AtomicLong(now);
    }

    boolean take(long now) {
      while (true) {
        long at = fullAt.get();
        long from = now - at > 0 ? now : at;
        if (from - now > tolerance) {
          return false;
        }
        if (fullAt.compareAndSet(at, from + interval)) {
          return true;
        }
      }
    }

    boolean isFull(long now) {
      return now - fullAt.get() >= 0;
    }
  }
}
