package io.securethrift.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.ServerLimits;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.internal.ServerCountersJmx;
import io.securethrift.core.spi.TlsEngines;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A non-blocking Thrift server for any securethrift mode, a drop-in for a {@code TThreadPoolServer} built with
 * {@link ServerTransportFactory}: the same {@link SecurityConfig}, the same {@link TProcessor}, the same wire format
 * (framed Thrift, TLS, Thrift SASL), and {@link PeerIdentity#current()} inside the service. A
 * connection holds a thread only while its call runs: handshakes wait on event loops, SASL mechanisms run on a small
 * authentication pool, calls on a bounded worker pool, one call per connection at a time.
 *
 * <pre>{@code
 * try (NettyThriftServer server = NettyThriftServer.builder(config, new MyService.Processor<>(impl))
 *     .protocolFactory(new TCompactProtocol.Factory()).workerThreads(64).build()) {
 *   server.start(new InetSocketAddress(9997));
 *   ...
 * }
 * }</pre>
 *
 * <p>Admission is governed by {@link ServerLimits} ({@code securethrift.server.*}) and the handshake deadline
 * ({@code securethrift.timeout.handshake}).
 */
public final class NettyThriftServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  private final ServerTransportFactory factory;
  private final ServerContext context;
  private final EventLoopGroup boss;
  private final EventLoopGroup loops;
  private final ExecutorService workers;
  private final ExecutorService authentication;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final Duration shutdownGrace;
  private Channel listening;
  private ServerCountersJmx jmx;

  private NettyThriftServer(Builder b) {
    this.factory = ServerTransportFactory.create(b.config);
    // Unbounded: a call waits here only while its connection has no other in flight, and connections are capped.
    this.workers = ElasticPool.create(b.workerThreads, Integer.MAX_VALUE, b.threadKeepAlive, "securethrift-worker");
    // Bounded: a connection waits here only while not yet authenticated, and those are capped too.
    this.authentication = ElasticPool.create(b.authenticationThreads,
        ServerContext.authenticationQueueCapacity(b.config.server()), b.threadKeepAlive, "securethrift-auth");
    this.context = new ServerContext(factory, b.processor, b.protocolFactory, workers, b.callsOnEventLoop,
        authentication);
    this.boss = new NioEventLoopGroup(1, new DefaultThreadFactory("securethrift-accept", true));
    this.loops = new NioEventLoopGroup(b.eventLoopThreads, new DefaultThreadFactory("securethrift-io", true));
    this.shutdownGrace = b.shutdownGrace;
  }

  /** A server for {@code processor} secured by {@code config}; binary protocol unless told otherwise. */
  public static Builder builder(SecurityConfig config, TProcessor processor) {
    return new Builder(config, processor);
  }

  /** Binds and starts accepting; port 0 picks a free port (see {@link #port()}). */
  public NettyThriftServer start(InetSocketAddress address) throws InterruptedException {
    ServerLimits limits = factory.config().server();
    ServerBootstrap bootstrap = new ServerBootstrap().group(boss, loops).channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 128)
        .option(ChannelOption.SO_REUSEADDR, true)
        .handler(context.admission().rateGate())
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
            new WriteBufferWaterMark(limits.writeBufferLow(), limits.writeBufferHigh()))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            if (!context.admission().admit(channel)) {
              channel.close();
              return;
            }
            channels.add(channel);
            TlsEngines engines = context.tlsEngines();
            TlsEngines.HandshakeRecord record = engines == null ? null : engines.record();
            // One concern a handler (docs/nonblocking-server.md). The guard and the SASL negotiation leave once the
            // peer is authenticated, so a call's bytes pass only the codec and the dispatcher.
            HandshakeGuard guard = new HandshakeGuard(context, record);
            if (engines != null && limits.portUnification()) {
              channel.pipeline().addLast(new PortUnifier(context, guard, () -> tlsHandlers(channel, engines, record)));
            } else if (engines != null) {
              channel.pipeline().addLast(tlsHandlers(channel, engines, record));
            }
            channel.pipeline().addLast(new WriteLimit(limits.writeBufferFatal(), context.factory().audit()), guard);
            if (context.usesSasl()) {
              channel.pipeline().addLast(new SaslNegotiation(context, guard));
            }
            FrameCodec frames = new FrameCodec(context);
            channel.pipeline().addLast(frames, new CallDispatcher(context, frames));
          }
        });
    listening = bootstrap.bind(address).sync().channel();
    jmx = ServerCountersJmx.register(factory, port(), this::connections, this::unauthenticatedConnections);
    LOG.info("serving {} on {}", factory.config().mode().token(), listening.localAddress());
    return this;
  }

  /** The TLS handlers of a connection, head first: the handshake watch, the engine's, the first write's split. */
  private static ChannelHandler[] tlsHandlers(SocketChannel channel, TlsEngines engines,
      TlsEngines.HandshakeRecord record) {
    SSLEngine engine = engines.serverEngine(channel.remoteAddress());
    // Engine tasks run inline on the event loop, where HandshakeWatch can see them.
    SslHandler ssl = new SslHandler(engine);
    // HandshakeGuard's deadline covers TLS and SASL together, as on the blocking server.
    ssl.setHandshakeTimeoutMillis(0);
    // Records are gathered by copying, as for JSSE, on every engine: the composite Netty picks for Conscrypt keeps
    // each read's whole receive buffer, so a peer trickling a record a byte at a time would make the server hold a
    // hundred times what it sent.
    ssl.setCumulator(ByteToMessageDecoder.MERGE_CUMULATOR);
    return new ChannelHandler[] {new HandshakeWatch(record), ssl, new FirstWriteSplit()};
  }

  /**
   * Whether plaintext connections are served now: true on a port started with
   * {@code securethrift.server.port.unification=true} until {@link #plaintextAccepted(boolean)} turns it off.
   */
  public boolean plaintextAccepted() {
    return factory.plaintextAccepted();
  }

  /**
   * Switches a unified port's plaintext on or off while it runs ({@link ServerTransportFactory#plaintextAccepted(
   * boolean)}): false makes the port TLS only without a restart; open connections carry on. JMX attribute
   * {@code PlaintextAccepted} of {@code io.securethrift:type=Server,port=<port>} is the same switch.
   *
   * @throws IllegalStateException if the configuration has no {@code securethrift.server.port.unification}
   */
  public void plaintextAccepted(boolean accepted) {
    factory.plaintextAccepted(accepted);
  }

  /** The bound port. */
  public int port() {
    return ((InetSocketAddress) listening.localAddress()).getPort();
  }

  /** This server's handshake outcomes: successes by protection and refusals by cause, as the audit log counts them. */
  public AuthCounters counters() {
    return factory.counters();
  }

  /** Open connections now (for tests and monitoring). */
  public int connections() {
    return context.admission().connections();
  }

  /** Calls read and not yet answered (for tests). */
  int callsInFlight() {
    return context.callsInFlight();
  }

  /** The handlers of each open connection's pipeline, head first, by class name (for tests). */
  List<List<String>> pipelines() {
    List<List<String>> pipelines = new ArrayList<>();
    for (Channel channel : channels) {
      List<String> handlers = new ArrayList<>();
      channel.pipeline().forEach(entry -> handlers.add(entry.getValue().getClass().getSimpleName()));
      pipelines.add(handlers);
    }
    return pipelines;
  }

  /** Worker and authentication threads alive now: none once the pools have been idle for the keep-alive. */
  int poolThreads() {
    return ((ThreadPoolExecutor) workers).getPoolSize() + ((ThreadPoolExecutor) authentication).getPoolSize();
  }

  /** Connections still in their handshakes now. */
  public int unauthenticatedConnections() {
    return context.admission().unauthenticated();
  }

  /**
   * Stops accepting, lets calls in flight finish and send their replies within {@code grace}, then closes every
   * connection and stops the threads.
   */
  public void shutdown(Duration grace) {
    if (listening != null) {
      listening.close().syncUninterruptibly();
    }
    context.drain();
    long deadline = System.nanoTime() + grace.toNanos();
    // Idle connections go now; busy ones close themselves once their SASL step ends or their reply is written.
    channels.forEach(channel -> channel.eventLoop().execute(() -> {
      if (!busy(channel)) {
        channel.close();
      }
    }));
    try {
      while (context.callsInFlight() > 0 && System.nanoTime() < deadline) {
        channels.newCloseFuture().await(10, TimeUnit.MILLISECONDS);
      }
      channels.close().await(grace.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    workers.shutdownNow();
    authentication.shutdownNow();
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    if (jmx != null) {
      jmx.close();
    }
    factory.close();
  }

  /** Whether a SASL negotiation step or a call runs for {@code channel}; on its event loop. */
  private static boolean busy(Channel channel) {
    SaslNegotiation negotiation = channel.pipeline().get(SaslNegotiation.class);
    CallDispatcher calls = channel.pipeline().get(CallDispatcher.class);
    return negotiation != null && negotiation.busy() || calls != null && calls.busy();
  }

  /** {@link #shutdown} with the builder's grace period. */
  @Override
  public void close() {
    shutdown(shutdownGrace);
  }

  /** Settings of a server beyond its {@link SecurityConfig}. */
  public static final class Builder {
    private final SecurityConfig config;
    private final TProcessor processor;
    private TProtocolFactory protocolFactory = new TBinaryProtocol.Factory();
    private int workerThreads = 64;
    private int authenticationThreads = 4;
    private int eventLoopThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private Duration shutdownGrace = Duration.ofSeconds(10);
    private Duration threadKeepAlive = Duration.ofSeconds(60);
    private boolean callsOnEventLoop;

    private Builder(SecurityConfig config, TProcessor processor) {
      this.config = Objects.requireNonNull(config, "config");
      this.processor = Objects.requireNonNull(processor, "processor");
    }

    /** The Thrift protocol of calls: binary (default) or compact; multiplexing lives in the processor. */
    public Builder protocolFactory(TProtocolFactory factory) {
      this.protocolFactory = Objects.requireNonNull(factory);
      return this;
    }

    /** Threads running calls; at most this many calls run at once. Default 64. */
    public Builder workerThreads(int threads) {
      this.workerThreads = positive(threads, "workerThreads");
      return this;
    }

    /** Threads evaluating SASL mechanisms. Default 4. */
    public Builder authenticationThreads(int threads) {
      this.authenticationThreads = positive(threads, "authenticationThreads");
      return this;
    }

    /** Event loop threads for all connections' I/O and TLS. Default: the number of processors, at least 2. */
    public Builder eventLoopThreads(int threads) {
      this.eventLoopThreads = positive(threads, "eventLoopThreads");
      return this;
    }

    /** How long {@link #close()} lets calls in flight finish. Default 10 seconds. */
    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = Objects.requireNonNull(grace);
      return this;
    }

    /**
     * How long a worker or authentication thread waits for work before it ends. Default 60 seconds; a later burst
     * starts threads again, which costs about as much as a few calls.
     */
    public Builder threadKeepAlive(Duration keepAlive) {
      if (keepAlive.isNegative() || keepAlive.isZero()) {
        throw new IllegalArgumentException("threadKeepAlive must be positive, got " + keepAlive);
      }
      this.threadKeepAlive = keepAlive;
      return this;
    }

    /**
     * Whether calls run on their connection's event loop instead of on a worker thread. Default false.
     *
     * <p>Only for a service whose every call is short and never waits (no I/O, no lock held for long, no call to
     * another server): a call that waits stalls every connection of its event loop for as long, and no more calls
     * than event loops run at once. In exchange each call is spared two hand-offs between threads, the event loop's
     * to a worker and the worker's back for the reply, which on a small machine cost more CPU than a small call
     * itself. Authentication stays on its own pool either way.
     */
    public Builder callsOnEventLoop(boolean onEventLoop) {
      this.callsOnEventLoop = onEventLoop;
      return this;
    }

    private static int positive(int n, String name) {
      if (n < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, got " + n);
      }
      return n;
    }

    /** Checks the configuration (key stores, keytab login) and creates the server's threads. */
    public NettyThriftServer build() {
      return new NettyThriftServer(this);
    }
  }
}
