package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.HandshakeAudit.Stage;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.TlsEngines;
import java.io.EOFException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.transport.TTransportException;

/**
 * Sees a connection through its handshakes, from accept to authentication: their deadline
 * ({@code securethrift.timeout.handshake}, over TLS and SASL together, as on the blocking server), eviction at the
 * unauthenticated limit ({@link Admission}), the TLS handshake's outcome, and the audit, one outcome per connection.
 * When the stream layer is done it tells the handlers after it ({@link StreamSecured}, for {@link SaslNegotiation});
 * once every handshake is done (at once without SASL) it audits the success, tells them ({@link Authenticated}) and
 * leaves the pipeline, so an authenticated connection's calls never pass it.
 *
 * <p>It also holds the connection's decision to close before authentication ({@link #closing()}): the channel's own
 * state cannot tell, as a TLS connection stays open after {@code close()} until its close_notify is sent, and bytes
 * that arrive meanwhile must not start another negotiation step.
 */
final class HandshakeGuard extends ChannelInboundHandlerAdapter {
  /** The stream layer (TLS, or plain TCP) is done: SASL negotiates next, over a stream of this identity. */
  static final class StreamSecured {
    final PeerIdentity identity;

    StreamSecured(PeerIdentity identity) {
      this.identity = identity;
    }
  }

  /** Every handshake is done: calls are served, as this peer's, through its SASL data layer if the mode has one. */
  static final class Authenticated {
    final PeerIdentity identity;
    /** Null without SASL. */
    final SaslStream sasl;
    /** When the connection was accepted ({@link System#nanoTime}), which its maximum age counts from. */
    final long acceptedNanos;

    Authenticated(PeerIdentity identity, SaslStream sasl, long acceptedNanos) {
      this.identity = identity;
      this.sasl = sasl;
      this.acceptedNanos = acceptedNanos;
    }
  }

  private final ServerContext server;
  /** What the TLS layer learns during this connection's handshake; null when the mode has no TLS. */
  private final TlsEngines.HandshakeRecord tlsRecord;
  private ChannelHandlerContext ctx;
  private ScheduledFuture<?> deadline;
  /** When the connection was accepted, for the audit's handshake time. */
  private long acceptedNanos;
  /** The stream layer is done: a refusal from here on is SASL's. */
  private boolean secured;
  private boolean authenticated;
  /** Whether this connection's failed handshake was audited: one outcome per connection, whatever closed it. */
  private boolean refused;
  /** A handler decided to close the connection, or it closed. */
  private boolean closing;

  HandshakeGuard(ServerContext server, TlsEngines.HandshakeRecord tlsRecord) {
    this.server = server;
    this.tlsRecord = tlsRecord;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    acceptedNanos = System.nanoTime();
    long millis = server.handshakeTimeout().toMillis();
    deadline = ctx.executor().schedule(this::deadlinePassed, millis, TimeUnit.MILLISECONDS);
    ctx.fireChannelActive();
    if (tlsRecord == null) {
      secured(server.factory().tcpIdentity(remote()));
    }
  }

  private Channel channel() {
    return ctx.channel();
  }

  private InetSocketAddress remote() {
    return (InetSocketAddress) channel().remoteAddress();
  }

  private void deadlinePassed() {
    if (!authenticated && channel().isOpen()) {
      refuse(new TTransportException(TTransportException.TIMED_OUT, "handshake did not complete within "
          + server.handshakeTimeout().toMillis() + " ms (" + ConfigProperty.TIMEOUT_HANDSHAKE.key() + ")"));
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event == Admission.EVICTED) {
      // A newer connection took this one's place among the unauthenticated; if it finished its handshakes
      // meanwhile it keeps its place.
      if (!authenticated && !closing) {
        refuse(server.admission().evictionFailure());
      }
      return;
    }
    if (event instanceof SslHandshakeCompletionEvent && tlsHandshaking()) {
      SslHandshakeCompletionEvent done = (SslHandshakeCompletionEvent) event;
      ctx.pipeline().remove(HandshakeWatch.class);
      if (done.isSuccess()) {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        secured(server.tlsEngines().identify(ssl.engine(), remote(), tlsRecord));
      } else {
        // Netty reports a peer that closed mid-handshake as a ClosedChannelException, which the TLS layer's
        // explanations (written for sockets) know as an end of file.
        Throwable cause = done.cause() instanceof ClosedChannelException
            ? new EOFException("connection closed") : done.cause();
        refuse(server.tlsEngines().explain(cause, String.valueOf(channel().remoteAddress()), tlsRecord));
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  private boolean tlsHandshaking() {
    return tlsRecord != null && !secured && !closing;
  }

  /** The stream layer is done: SASL negotiates next, or calls are served. */
  private void secured(PeerIdentity streamIdentity) {
    secured = true;
    if (server.usesSasl()) {
      ctx.fireUserEventTriggered(new StreamSecured(streamIdentity));
    } else {
      authenticated(streamIdentity, null);
    }
  }

  /** Every handshake is done; on the event loop. {@code sasl} is null without SASL. */
  void authenticated(PeerIdentity identity, SaslStream sasl) {
    authenticated = true;
    deadline.cancel(false);
    server.admission().authenticated(channel());
    audit().succeeded(identity, Duration.ofNanos(System.nanoTime() - acceptedNanos));
    ctx.fireUserEventTriggered(new Authenticated(identity, sasl, acceptedNanos));
    ctx.pipeline().remove(this);
  }

  /**
   * Audits a connection refused before it authenticated, which the main log may warn about, and closes it. Only the
   * first refusal of a connection is audited: a deadline, an eviction and the peer's leaving can all close it.
   */
  void refuse(Throwable error) {
    if (!refused) {
      refused = true;
      audit().failed(channel().remoteAddress(), stage(), error, Duration.ofNanos(System.nanoTime() - acceptedNanos));
    }
    close();
  }

  /** Closes the connection without an audit line (shutdown began). */
  void close() {
    closing = true;
    channel().close();
  }

  /** Whether the connection is closing: nothing more may be taken from it. */
  boolean closing() {
    return closing;
  }

  /** The layer a connection that has not authenticated is in. */
  private Stage stage() {
    return secured || tlsRecord == null ? Stage.SASL : Stage.TLS;
  }

  private HandshakeAudit audit() {
    return server.factory().audit();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (tlsHandshaking()) {
      // The handshake completion event follows and names the cause.
      return;
    }
    // The last handler logs it and closes the connection.
    closing = true;
    ctx.fireExceptionCaught(cause);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (deadline != null) {
      deadline.cancel(false);
    }
    // Marked only once the handlers after it have seen the close: SaslNegotiation audits a peer that left
    // mid-negotiation, unless a close had been decided here.
    ctx.fireChannelInactive();
    closing = true;
  }
}
