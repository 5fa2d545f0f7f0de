package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.audit.HandshakeAudit.Stage;
import io.securethrift.core.internal.FrameReader;
import io.securethrift.core.internal.PendingReplies;
import io.securethrift.core.spi.TlsEngines;
import io.securethrift.core.transport.ServerTransportFactory;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocolFactory;

/** What every connection of one server shares: the layers, the processor, the pools and the admission counts. */
final class ServerContext {
  private final ServerTransportFactory factory;
  private final TProcessor processor;
  private final TProtocolFactory protocolFactory;
  private final ExecutorService workers;
  private final boolean callsOnEventLoop;
  private final ExecutorService authenticationPool;
  private final Admission admission;
  private final TlsEngines tlsEngines;
  private final AtomicInteger callsInFlight = new AtomicInteger();
  private final PendingReplies pendingReplies;
  /**
   * The header checks of every connection: only {@link FrameReader#checkLength} is used, which reads final fields, so
   * one of each serves all event loops and no connection carries its own.
   */
  private final FrameReader frameLimit;
  private final FrameReader negotiationLimit;
  private volatile boolean draining;

  ServerContext(ServerTransportFactory factory, TProcessor processor, TProtocolFactory protocolFactory,
      ExecutorService workers, boolean callsOnEventLoop, ExecutorService authenticationPool) {
    this.factory = factory;
    this.processor = factory.withPeerIdentity(processor);
    this.protocolFactory = protocolFactory;
    this.workers = workers;
    this.callsOnEventLoop = callsOnEventLoop;
    this.authenticationPool = authenticationPool;
    this.admission = new Admission(factory.config().server(), factory.audit(),
        factory.config().mode().usesTls() ? Stage.TLS : Stage.SASL);
    this.tlsEngines = factory.tlsEngines().orElse(null);
    this.pendingReplies = new PendingReplies(factory.config().server().pendingRepliesMax(), factory.audit());
    Limits limits = factory.config().limits();
    this.frameLimit = new FrameReader(limits.maxFrameSize(), ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
    this.negotiationLimit = new FrameReader(limits.maxNegotiationMessageSize(),
        ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE.key());
  }

  ServerTransportFactory factory() {
    return factory;
  }

  TProcessor processor() {
    return processor;
  }

  TProtocolFactory protocolFactory() {
    return protocolFactory;
  }

  ExecutorService workers() {
    return workers;
  }

  /** Whether calls run on their connection's event loop instead of {@link #workers()}. */
  boolean callsOnEventLoop() {
    return callsOnEventLoop;
  }

  /**
   * Counts a reply that {@code channel} could not write at once until {@code write} completes (see
   * {@link PendingReplies}).
   */
  void replyPending(Channel channel, long bytes, Future<?> write) {
    PendingReplies.Reply reply = pendingReplies.add(channel.remoteAddress(), channel::close, bytes);
    write.addListener(done -> reply.close());
  }

  ExecutorService authenticationPool() {
    return authenticationPool;
  }

  Admission admission() {
    return admission;
  }

  /** Null when the mode has no TLS. */
  TlsEngines tlsEngines() {
    return tlsEngines;
  }

  boolean usesSasl() {
    return factory.config().mode().usesSasl();
  }

  Limits limits() {
    return factory.config().limits();
  }

  /** Checks a data frame's declared length against {@code securethrift.limit.max.frame.size}; use checkLength only. */
  FrameReader frameLimit() {
    return frameLimit;
  }

  /**
   * Checks a SASL negotiation message's declared length against
   * {@code securethrift.limit.max.negotiation.message.size}; use checkLength only.
   */
  FrameReader negotiationLimit() {
    return negotiationLimit;
  }

  Duration handshakeTimeout() {
    return factory.config().timeouts().handshake();
  }

  /** How long a reply may take to be written, as a read may take to arrive ({@code securethrift.timeout.read}). */
  Duration writeTimeout() {
    return factory.config().timeouts().read();
  }

  Duration idleTimeout() {
    return factory.config().server().idleTimeout();
  }

  Duration connectionMaxAge() {
    return factory.config().server().connectionMaxAge();
  }

  /**
   * Negotiation steps that may wait for the authentication pool: one per unauthenticated connection, and as many
   * again for connections evicted (see {@link Admission}) while their step waited, which end at once when it runs.
   */
  static int authenticationQueueCapacity(ServerLimits limits) {
    return 2 * limits.maxUnauthenticatedConnections();
  }

  int authenticationQueueCapacity() {
    return authenticationQueueCapacity(factory.config().server());
  }

  void beginCall() {
    callsInFlight.incrementAndGet();
  }

  void endCall() {
    callsInFlight.decrementAndGet();
  }

  int callsInFlight() {
    return callsInFlight.get();
  }

  /** Shutdown has begun: connections close once their call in flight has been answered. */
  boolean draining() {
    return draining;
  }

  void drain() {
    draining = true;
  }
}
