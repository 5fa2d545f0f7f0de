package io.securethrift.core.transport;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.audit.AuthCounters;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.internal.HandshakeClassifier;
import io.securethrift.core.internal.PendingReplies;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.SaslNegotiator;
import io.securethrift.core.spi.TlsEngines;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.apache.thrift.TProcessor;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TServerTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;

/**
 * What a Thrift server needs to accept secured connections for one {@link SecurityConfig}: a listening socket, a
 * transport factory that runs the handshake on the connection's worker thread (never on the accept thread), and a
 * processor wrapper that exposes {@link PeerIdentity#current()} to the service.
 *
 * <pre>{@code
 * ServerTransportFactory factory = ServerTransportFactory.create(config);
 * TServerTransport socket = factory.listen(new InetSocketAddress("0.0.0.0", 9997));
 * TServer server = new TThreadPoolServer(factory.threadPoolServerArgs(socket, new MyService.Processor<>(impl))
 *     .protocolFactory(new TCompactProtocol.Factory()));
 * }</pre>
 */
public final class ServerTransportFactory implements AutoCloseable {
  private static final SharedAccess.IdentityOperations IDENTITY = SharedAccess.identity();
  private static final SharedAccess.AuditOperations AUDIT = SharedAccess.audit();

  private static final int BACKLOG = 128;

  private final Layers layers;
  private final HandshakeAudit audit;
  /** The thread-pool server's large replies while its workers write them. */
  private final PendingReplies pendingReplies;
  /**
   * Thrift servers ask the factory twice per connection, for the input and the output transport, and both must be the
   * one secured transport: a second handshake on the same socket would fail. The first call secures, the second takes
   * the result. Weak keys let a connection whose second call never comes be collected.
   */
  private final Map<TTransport, SecuredTransport> securedByAccepted = Collections.synchronizedMap(new WeakHashMap<>());
  private final TTransportFactory transportFactory = new TTransportFactory() {
    @Override
    public TTransport getTransport(TTransport accepted) throws TTransportException {
      SecuredTransport secured = securedByAccepted.remove(accepted);
      if (secured == null) {
        secured = secure(accepted);
        securedByAccepted.put(accepted, secured);
      }
      return secured;
    }
  };

  private ServerTransportFactory(Layers layers) {
    this.layers = layers;
    this.audit = AUDIT.create(layers.config(), System::nanoTime);
    this.pendingReplies = new PendingReplies(layers.config().server().pendingRepliesMax(), audit);
  }

  /** Checks the server-side settings of {@code config} (a TLS server needs a key store, for example). */
  public static ServerTransportFactory create(SecurityConfig config) {
    return new ServerTransportFactory(Layers.resolve(config, Role.SERVER));
  }

  public SecurityConfig config() {
    return layers.config();
  }

  /**
   * Where this factory reports each handshake's outcome (the audit log, the counters, the main log's warning). Its
   * own connections report themselves; a server that runs the handshake some other way reports through it too.
   */
  public HandshakeAudit audit() {
    return audit;
  }

  /** Connections accepted and refused since this factory was created, by protection and by cause. */
  public AuthCounters counters() {
    return audit.counters();
  }

  /** Binds a listening socket; port 0 picks a free port (read it from {@link #port(TServerTransport)}). */
  public TServerSocket listen(InetSocketAddress address) throws TTransportException {
    try {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      try {
        socket.bind(address, BACKLOG);
      } catch (IOException e) {
        socket.close();
        throw e;
      }
      return new ListeningSocket(socket, this, layers.config().server(),
          layers.config().mode().usesTls() ? HandshakeAudit.Stage.TLS : HandshakeAudit.Stage.SASL);
    } catch (IOException e) {
      throw new TTransportException(TTransportException.NOT_OPEN, "cannot listen on " + address + ": "
          + e.getMessage(), e);
    }
  }

  /** The local port of a transport returned by {@link #listen}. */
  public static int port(TServerTransport transport) {
    return ((TServerSocket) transport).getServerSocket().getLocalPort();
  }

  /** Turns an accepted plain socket into a secured transport: TLS handshake and SASL negotiation, as configured. */
  public TTransportFactory transportFactory() {
    return transportFactory;
  }

  /**
   * Whether plaintext connections are served now: true on a port started with
   * {@code securethrift.server.port.unification=true} until {@link #plaintextAccepted(boolean)} turns it off.
   */
  public boolean plaintextAccepted() {
    return layers.unification().plaintextAccepted();
  }

  /**
   * Switches a unified port's plaintext on or off while it runs, for every server this factory's connections come
   * to: false makes the port TLS only, without a restart, once the audit's {@code plaintext} count stops growing;
   * connections already open carry on. JMX attribute {@code PlaintextAccepted} of
   * {@code io.securethrift:type=Server,port=<port>} is the same switch.
   *
   * @throws IllegalStateException if the configuration has no {@code securethrift.server.port.unification}
   */
  public void plaintextAccepted(boolean accepted) {
    layers.unification().plaintextAccepted(accepted);
  }

  /**
   * The identity of a plaintext connection a unified port serves, from {@code remote}: mode {@code none}, nobody
   * authenticated, whatever the port's mode.
   */
  public PeerIdentity plaintextIdentity(InetSocketAddress remote) {
    return IDENTITY.issuer().builder(SecurityMode.NONE, remote).build();
  }

  /** Wraps a processor so the service can read the caller's identity with {@link PeerIdentity#current()}. */
  public TProcessor withPeerIdentity(TProcessor processor) {
    return new IdentityProcessor(processor, audit);
  }

  /**
   * Arguments for a {@link TThreadPoolServer} with this factory's transport factory, the identity-aware processor and
   * at most {@code securethrift.server.max.threads} worker threads (libthrift's own default is unbounded, and each
   * connection holds a thread from its handshake on, so a connection flood ended in {@code OutOfMemoryError: unable
   * to create native thread}); the caller adds the protocol factory.
   */
  public TThreadPoolServer.Args threadPoolServerArgs(TServerTransport listening, TProcessor processor) {
    int threads = layers.config().server().maxThreads();
    TThreadPoolServer.Args args = new TThreadPoolServer.Args(listening)
        .transportFactory(transportFactory)
        .processor(withPeerIdentity(processor));
    return args.minWorkerThreads(Math.min(args.minWorkerThreads, threads)).maxWorkerThreads(threads);
  }

  /**
   * The TLS policy of this factory as {@link javax.net.ssl.SSLEngine}s, for a server that runs TLS itself
   * (securethrift's netty-server); empty when the mode has no TLS.
   */
  public Optional<TlsEngines> tlsEngines() {
    return layers.stream().engines();
  }

  /**
   * A SASL negotiation one message at a time for a connection whose stream layer established
   * {@code streamIdentity}, for a server that reads the messages itself, replying on {@code replies}; empty when the
   * mode has no SASL.
   */
  public Optional<SaslNegotiator> saslNegotiator(PeerIdentity streamIdentity, TTransport replies) {
    return layers.message().negotiator(streamIdentity, replies);
  }

  /**
   * The identity of a plain TCP connection from {@code remote}: the address and mode, nobody authenticated. What a
   * server that runs its own stream layer starts from when the mode has no TLS.
   */
  public PeerIdentity tcpIdentity(InetSocketAddress remote) {
    return IDENTITY.issuer().builder(layers.config().mode(), remote).build();
  }

  /**
   * Thrift framing over {@code stream} for a peer already identified, with every bound the blocking server applies
   * (frame limit before allocation, declared lengths backed by received bytes, one message per frame). A server that
   * reads frames itself hands each received frame (header included) to a fresh transport over an in-memory stream
   * and runs the {@link #withPeerIdentity} processor on it; the reply comes out framed on the same stream.
   */
  public SecuredTransport framedTransport(TTransport stream, PeerIdentity identity) {
    return new FramedTransport(stream, identity, layers.config().limits(), Role.SERVER);
  }

  private SecuredTransport secure(TTransport accepted) throws TTransportException {
    if (!(accepted instanceof TSocket)) {
      throw new TTransportException(TTransportException.UNKNOWN, "expected a socket from listen(), got "
          + accepted.getClass().getName());
    }
    // libthrift's TSocket and listen()'s SocketTransport have both set no-delay and keep-alive on the socket.
    Socket socket = ((TSocket) accepted).getSocket();
    String peer = String.valueOf(socket.getRemoteSocketAddress());
    try {
      return layers.handshake(socket, accepted instanceof SocketTransport ? (SocketTransport) accepted : null, null,
          peer, audit, pendingReplies);
    } catch (TTransportException e) {
      throw quiet(peer, HandshakeClassifier.classify(e, HandshakeAudit.Stage.SASL), e);
    }
  }

  /**
   * What the server loop gets instead of the handshake's exception, once the audit has logged it. Handshake errors
   * quote what the peer sent, and libthrift's loop (0.17 to 0.25) logs at ERROR, with the whole cause chain, anything
   * but an end of file or a timeout; those two it logs at DEBUG only. So the loop gets one of them, sanitized text and
   * no cause: a refused connection is closed, which is what the loop needs to know.
   */
  private static TTransportException quiet(String peer, AuthFailure cause, Exception e) {
    return new EscapedTransportException(cause == AuthFailure.TIMEOUT ? TTransportException.TIMED_OUT
        : TTransportException.END_OF_FILE, "rejected connection from " + PeerText.sanitize(peer) + " ["
        + cause.token() + "]: " + PeerText.describe(e));
  }

  @Override
  public void close() {
    layers.close();
  }
}
