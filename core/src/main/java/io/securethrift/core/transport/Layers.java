package io.securethrift.core.transport;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Timeouts;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.ConnectionEnd;
import io.securethrift.core.internal.Durations;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.internal.PendingReplies;
import io.securethrift.core.internal.PortUnification;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.spi.LayerProvider;
import io.securethrift.core.spi.MessageLayer;
import io.securethrift.core.spi.SecureStream;
import io.securethrift.core.spi.StreamLayer;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;
import org.apache.thrift.transport.TTransportException;

/**
 * The stream and message layers of one configuration and role, and the one handshake routine clients and servers
 * share: both layers run under the handshake deadline, then the read timeout takes over.
 */
final class Layers implements AutoCloseable {
  private static final SharedAccess.IdentityOperations IDENTITY = SharedAccess.identity();

  private final SecurityConfig config;
  private final StreamLayer stream;
  private final MessageLayer message;
  /** A server's choice between its layers and plaintext by the first byte; never unified on a client. */
  private final PortUnification unification;
  /** The layers of a unified port's plaintext connections; null unless the port is unified. */
  private final StreamLayer plainStream;
  private final MessageLayer plainMessage;

  private Layers(SecurityConfig config, StreamLayer stream, MessageLayer message, Role role) {
    this.config = config;
    this.stream = stream;
    this.message = message;
    this.unification = PortUnification.of(config.server(), role == Role.SERVER);
    this.plainStream = unification.unified() ? new PlainStreamLayer(SecurityMode.NONE, IDENTITY.issuer()) : null;
    this.plainMessage = unification.unified() ? new FramedMessageLayer(config.limits(), role) : null;
  }

  static Layers resolve(SecurityConfig config, Role role) {
    SecurityMode mode = config.mode();
    StreamLayer stream = mode.usesTls()
        ? provided(config, p -> p.streamLayer(config, role, IDENTITY.issuer()), "securethrift-tls")
        : new PlainStreamLayer(mode, IDENTITY.issuer());
    MessageLayer message;
    try {
      message = mode.usesSasl()
          ? provided(config, p -> p.messageLayer(config, role, IDENTITY.issuer()), "securethrift-sasl")
          : new FramedMessageLayer(config.limits(), role);
    } catch (RuntimeException e) {
      stream.close();
      throw e;
    }
    return new Layers(config, stream, message, role);
  }

  private static <L> L provided(SecurityConfig config, Function<LayerProvider, Optional<L>> pick, String module) {
    for (LayerProvider provider : ServiceLoader.load(LayerProvider.class, Layers.class.getClassLoader())) {
      Optional<L> layer = pick.apply(provider);
      if (layer.isPresent()) {
        return layer.get();
      }
    }
    throw new ConfigException(ConfigProperty.MODE.key(), "'" + config.mode() + "' needs the " + module
        + " module on the class path");
  }

  SecurityConfig config() {
    return config;
  }

  PortUnification unification() {
    return unification;
  }

  StreamLayer stream() {
    return stream;
  }

  MessageLayer message() {
    return message;
  }

  /**
   * Runs both layers on a connected socket. On failure the socket is closed and the exception says which peer and
   * why; a handshake cut short by the deadline says so and names the timeout setting.
   */
  SecuredTransport handshake(Socket socket, String host, String peer) throws TTransportException {
    return handshake(socket, null, host, peer, null, null);
  }

  /**
   * {@link #handshake(Socket, String, String)} for a server: {@code accepted}, when not null, is a transport over
   * {@code socket} already, which the message layer reads and writes through if the stream layer keeps the socket as
   * it is (a mode without TLS); {@code audit} hears the outcome, with the stage that failed and the time taken;
   * {@code replies} counts the server's large replies while they are written.
   */
  SecuredTransport handshake(Socket socket, SocketTransport accepted, String host, String peer, HandshakeAudit audit,
      PendingReplies replies) throws TTransportException {
    Timeouts timeouts = config.timeouts();
    long start = System.nanoTime();
    HandshakeAudit.Stage stage = config.mode().usesTls() ? HandshakeAudit.Stage.TLS : HandshakeAudit.Stage.SASL;
    try (SocketDeadline deadline = SocketDeadline.arm(socket, timeouts.handshake())) {
      try {
        socket.setSoTimeout(millis(timeouts.handshake()));
        StreamLayer streamLayer = stream;
        MessageLayer messageLayer = message;
        Socket opened = socket;
        if (unification.unified()) {
          PeekedSocket peeked = PeekedSocket.peek(socket);
          opened = peeked;
          if (!PortUnification.startsTls(peeked.firstByte())) {
            if (!unification.plaintextAccepted()) {
              throw PortUnification.refusal();
            }
            streamLayer = plainStream;
            messageLayer = plainMessage;
          }
        }
        SecureStream secured = streamLayer.open(opened, host);
        stage = HandshakeAudit.Stage.SASL;
        SocketTransport socketTransport = accepted != null && secured.socket() == socket ? accepted
            : new SocketTransport(secured.socket(), socket);
        SecuredTransport transport = messageLayer.open(socketTransport, secured.identity(), host);
        secured.socket().setSoTimeout(millis(timeouts.read()));
        socketTransport.established(peer, timeouts.read(), replies);
        if (audit != null) {
          transport.age = ConnectionAge.of(socketTransport, start,
              ConnectionEnd.of(transport.peerIdentity(), start, config.server().connectionMaxAge()));
          audit.succeeded(transport.peerIdentity(), Duration.ofNanos(System.nanoTime() - start));
        }
        return transport;
      } catch (IOException | TTransportException | RuntimeException e) {
        closeQuietly(socket);
        TTransportException failure = deadline.expired()
            ? new TTransportException(TTransportException.TIMED_OUT, "handshake with " + peer
                + " did not complete within " + Durations.format(timeouts.handshake()) + " ("
                + ConfigProperty.TIMEOUT_HANDSHAKE.key() + ")")
            : e instanceof TTransportException ? (TTransportException) e
            : new EscapedTransportException(TTransportException.UNKNOWN, "handshake with " + peer + " failed: "
                + PeerText.describe(e), e);
        if (audit != null) {
          audit.failed(socket.getRemoteSocketAddress(), stage, failure, Duration.ofNanos(System.nanoTime() - start));
        }
        throw failure;
      }
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
  }

  static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Already failing; the original error is what matters.
    }
  }

  /** No-delay and keep-alive, as libthrift's {@code TSocket} sets them, for a socket no TSocket wraps yet. */
  static void tune(Socket socket) throws SocketException {
    socket.setTcpNoDelay(true);
    socket.setKeepAlive(true);
  }

  @Override
  public void close() {
    try {
      stream.close();
    } finally {
      message.close();
    }
  }
}
