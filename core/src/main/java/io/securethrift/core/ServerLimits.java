package io.securethrift.core;

import java.time.Duration;

/**
 * What a server admits and how long it keeps connections. The non-blocking server (securethrift's netty-server):
 * connection counts, the idle timeout after authentication, the write-buffer marks and the replies waiting. The
 * thread-pool server: its worker threads, which bound its connections. Both: the rate of new connections and the
 * connections' maximum age. Immutable; only {@link SecurityConfig.Builder#build()} creates one, after checking every
 * value. The pre-authentication deadline is {@link Timeouts#handshake()}.
 */
public final class ServerLimits {
  private final int maxConnections;
  private final int maxThreads;
  private final int maxUnauthenticatedConnections;
  private final int maxConnectionsPerAddress;
  private final int maxUnauthenticatedConnectionsPerAddress;
  private final int ipv6Prefix;
  private final int connectionRatePerAddress;
  private final int connectionRateMax;
  private final Duration idleTimeout;
  private final Duration connectionMaxAge;
  private final boolean portUnification;
  private final boolean closeAtTicketEnd;
  private final int writeBufferLow;
  private final int writeBufferHigh;
  private final long writeBufferFatal;
  private final long pendingRepliesMax;

  ServerLimits(int maxConnections, int maxThreads, int maxUnauthenticatedConnections, int maxConnectionsPerAddress,
      int maxUnauthenticatedConnectionsPerAddress, int ipv6Prefix, int connectionRatePerAddress, int connectionRateMax,
      Duration idleTimeout, Duration connectionMaxAge, boolean portUnification, boolean closeAtTicketEnd,
      int writeBufferLow, int writeBufferHigh, long writeBufferFatal, long pendingRepliesMax) {
    this.maxConnections = maxConnections;
    this.maxThreads = maxThreads;
    this.maxUnauthenticatedConnections = maxUnauthenticatedConnections;
    this.maxConnectionsPerAddress = maxConnectionsPerAddress;
    this.maxUnauthenticatedConnectionsPerAddress = maxUnauthenticatedConnectionsPerAddress;
    this.ipv6Prefix = ipv6Prefix;
    this.connectionRatePerAddress = connectionRatePerAddress;
    this.connectionRateMax = connectionRateMax;
    this.idleTimeout = idleTimeout;
    this.connectionMaxAge = connectionMaxAge;
    this.portUnification = portUnification;
    this.closeAtTicketEnd = closeAtTicketEnd;
    this.writeBufferLow = writeBufferLow;
    this.writeBufferHigh = writeBufferHigh;
    this.writeBufferFatal = writeBufferFatal;
    this.pendingRepliesMax = pendingRepliesMax;
  }

  /** Open connections at most ({@link ConfigProperty#SERVER_MAX_CONNECTIONS}). */
  public int maxConnections() {
    return maxConnections;
  }

  /** Thread-pool server: worker threads, and so connections, at most ({@link ConfigProperty#SERVER_MAX_THREADS}). */
  public int maxThreads() {
    return maxThreads;
  }

  /** Connections still in their handshakes at most ({@link ConfigProperty#SERVER_MAX_UNAUTHENTICATED}). */
  public int maxUnauthenticatedConnections() {
    return maxUnauthenticatedConnections;
  }

  /** Open connections from one remote address at most ({@link ConfigProperty#SERVER_MAX_PER_ADDRESS}). */
  public int maxConnectionsPerAddress() {
    return maxConnectionsPerAddress;
  }

  /**
   * Connections still in their handshakes from one remote address at most
   * ({@link ConfigProperty#SERVER_MAX_UNAUTHENTICATED_PER_ADDRESS}).
   */
  public int maxUnauthenticatedConnectionsPerAddress() {
    return maxUnauthenticatedConnectionsPerAddress;
  }

  /** The leading bits of an IPv6 address counted as one address ({@link ConfigProperty#SERVER_IPV6_PREFIX}). */
  public int ipv6Prefix() {
    return ipv6Prefix;
  }

  /**
   * New connections per second from one remote address at most, 0 for no limit
   * ({@link ConfigProperty#SERVER_CONNECTION_RATE_PER_ADDRESS}).
   */
  public int connectionRatePerAddress() {
    return connectionRatePerAddress;
  }

  /** New connections per second in all at most, 0 for no limit ({@link ConfigProperty#SERVER_CONNECTION_RATE_MAX}). */
  public int connectionRateMax() {
    return connectionRateMax;
  }

  /** How long an authenticated connection may stay silent between calls; zero keeps it forever. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /**
   * Both server models: how long an authenticated connection may live before it is closed at its next point
   * without a call in progress ({@link ConfigProperty#SERVER_CONNECTION_MAX_AGE}); zero keeps it for any age.
   */
  public Duration connectionMaxAge() {
    return connectionMaxAge;
  }

  /**
   * Both server models: whether the TLS port also serves plaintext clients until it is switched to TLS only
   * ({@link ConfigProperty#SERVER_PORT_UNIFICATION}).
   */
  public boolean portUnification() {
    return portUnification;
  }

  /**
   * Both server models: whether a Kerberos-authenticated connection is closed at its next point without a call in
   * progress once the client's service ticket has ended ({@link ConfigProperty#SERVER_KERBEROS_CLOSE_AT_TICKET_END}).
   */
  public boolean closeAtTicketEnd() {
    return closeAtTicketEnd;
  }

  /** Pending reply bytes under which a connection counts as writable again. */
  public int writeBufferLow() {
    return writeBufferLow;
  }

  /** Pending reply bytes over which a connection stops being writable. */
  public int writeBufferHigh() {
    return writeBufferHigh;
  }

  /** Pending reply bytes over which the connection is closed: the peer is not reading its replies. */
  public long writeBufferFatal() {
    return writeBufferFatal;
  }

  /**
   * Bytes of replies waiting for their peers, across all connections, over which the connection whose reply has
   * waited longest is closed ({@link ConfigProperty#SERVER_PENDING_REPLIES_MAX}).
   */
  public long pendingRepliesMax() {
    return pendingRepliesMax;
  }
}
