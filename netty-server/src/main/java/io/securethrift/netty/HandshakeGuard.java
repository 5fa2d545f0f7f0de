package io.securethrift.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.HandshakeAudit.Stage;
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
 * When the stream layer is done it tells the handlers after it ({@link Handshakes.StreamSecured}, for the
 * {@link SaslNegotiation}); when every handshake is done (at once without SASL) it audits the success, tells them
 * ({@link Handshakes.Authenticated}) and leaves the pipeline.
 */
final class HandshakeGuard extends ChannelInboundHandlerAdapter {
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
  private boolean inactive;

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

  private InetSocketAddress remote() {
    return (InetSocketAddress) ctx.channel().remoteAddress();
  }

  private void deadlinePassed() {
    if (!authenticated && ctx.channel().isOpen()) {
      refuse(new TTransportException(TTransportException.TIMED_OUT, "handshake did not complete within "
          + server.handshakeTimeout().toMillis() + " ms (" + ConfigProperty.TIMEOUT_HANDSHAKE.key() + ")"));
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event == Admission.EVICTED) {
      // A newer connection took this one's place among the unauthenticated; if it finished its handshakes
      // meanwhile it keeps its place.
      if (!authenticated && !closed()) {
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
        refuse(server.tlsEngines().explain(cause, String.valueOf(ctx.channel().remoteAddress()), tlsRecord));
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  /** The stream layer is done: SASL negotiates next, or calls are served. */
  private void secured(PeerIdentity streamIdentity) {
    secured = true;
    if (server.usesSasl()) {
      ctx.fireUserEventTriggered(new Handshakes.StreamSecured(streamIdentity));
    } else {
      authenticated(streamIdentity);
    }
  }

  /** Every handshake is done; on the event loop. */
  void authenticated(PeerIdentity identity) {
    authenticated = true;
    deadline.cancel(false);
    server.admission().authenticated(ctx.channel());
    server.factory().audit().succeeded(identity, sinceAccepted());
    ctx.fireUserEventTriggered(new Handshakes.Authenticated(identity));
    ctx.pipeline().remove(this);
  }

  /**
   * Audits a connection refused before it authenticated, which the main log may warn about, and closes it. Only the
   * first refusal of a connection is audited: a deadline, an eviction and the peer's leaving can all close it. Also
   * called once the connection is closed and this handler gone from the pipeline, by a SASL step that ended after.
   */
  void refuse(Throwable error) {
    if (!refused) {
      refused = true;
      server.factory().audit().failed(ctx.channel().remoteAddress(), stage(), error, sinceAccepted());
    }
    Closing.close(ctx.channel());
  }

  /** The layer a connection that has not authenticated is in. */
  private Stage stage() {
    return secured || tlsRecord == null ? Stage.SASL : Stage.TLS;
  }

  private Duration sinceAccepted() {
    return Duration.ofNanos(System.nanoTime() - acceptedNanos);
  }

  private boolean tlsHandshaking() {
    return tlsRecord != null && !secured && !closed();
  }

  /** The connection was closed, or a handler decided to close it. */
  private boolean closed() {
    return inactive || Closing.begun(ctx.channel());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    inactive = true;
    if (deadline != null) {
      deadline.cancel(false);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (tlsHandshaking()) {
      // The handshake completion event follows and names the cause.
      return;
    }
    ctx.fireExceptionCaught(cause);
  }
}
