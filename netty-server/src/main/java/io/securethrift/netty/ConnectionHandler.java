package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.HandshakeAudit.Stage;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.spi.SaslDataCodec;
import io.securethrift.core.spi.SaslNegotiator;
import io.securethrift.core.spi.TlsEngines;
import io.securethrift.core.transport.SecuredTransport;
import java.io.EOFException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's life after accept, on its event loop: TLS completion (when the mode has TLS), the SASL negotiation
 * (evaluated on the authentication pool, never here), then data frames. A complete message runs on a worker; the
 * next one is taken once its reply is written, so one call per connection is in flight and replies keep their order.
 * Reads go on while a call runs, up to what {@link ReadBuffer} lets wait behind it.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);
  private static final byte[] EMPTY = new byte[0];

  private enum Phase {
    HANDSHAKE,
    NEGOTIATING,
    DATA,
    CLOSED
  }

  private final ServerContext server;
  private final TlsEngines.HandshakeRecord tlsRecord;
  private ChannelHandlerContext ctx;
  private Channel channel;
  private String peer;
  private Phase phase = Phase.HANDSHAKE;
  /** Bytes received and not yet consumed, and whether reads are paused. */
  private final ReadBuffer buffer = new ReadBuffer();
  private PeerIdentity identity;
  private SaslNegotiator negotiator;
  /** The SASL data layer once negotiated; null without SASL. */
  private SaslStream sasl;
  /** A negotiation step or a call is running (off the event loop, unless the server runs calls there). */
  private boolean busy;
  /** {@link #pump} is on the stack. */
  private boolean pumping;
  private boolean authenticated;
  /** Whether this connection's failed handshake was audited: one outcome per connection, whatever closed it. */
  private boolean refused;
  private ScheduledFuture<?> deadline;
  /** Null until authenticated. */
  private IdleTimer idle;
  /** When the connection was accepted, for the audit's handshake time. */
  private long acceptedNanos;

  ConnectionHandler(ServerContext server, TlsEngines.HandshakeRecord tlsRecord) {
    this.server = server;
    this.tlsRecord = tlsRecord;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    channel = ctx.channel();
    peer = String.valueOf(channel.remoteAddress());
    acceptedNanos = System.nanoTime();
    long millis = server.handshakeTimeout().toMillis();
    deadline = ctx.executor().schedule(this::deadlinePassed, millis, TimeUnit.MILLISECONDS);
    if (tlsRecord == null) {
      secured(server.factory().tcpIdentity(remote()));
    }
    ctx.fireChannelActive();
  }

  private InetSocketAddress remote() {
    return (InetSocketAddress) channel.remoteAddress();
  }

  private void deadlinePassed() {
    if (!authenticated && channel.isOpen()) {
      refuse(new TTransportException(TTransportException.TIMED_OUT, "handshake did not complete within "
          + server.handshakeTimeout().toMillis() + " ms (" + ConfigProperty.TIMEOUT_HANDSHAKE.key() + ")"));
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event == Admission.EVICTED) {
      // A newer connection took this one's place among the unauthenticated; if it finished its handshakes
      // meanwhile it keeps its place.
      if (!authenticated && phase != Phase.CLOSED) {
        refuse(server.admission().evictionFailure());
      }
      return;
    }
    if (event instanceof SslHandshakeCompletionEvent && phase == Phase.HANDSHAKE) {
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
        refuse(server.tlsEngines().explain(cause, peer, tlsRecord));
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  /** The stream layer is done: negotiate SASL next, or serve. */
  private void secured(PeerIdentity streamIdentity) {
    identity = streamIdentity;
    if (server.usesSasl()) {
      negotiator = server.factory().saslNegotiator(streamIdentity, new ChannelReplies(channel)).orElseThrow();
      phase = Phase.NEGOTIATING;
    } else {
      serving(streamIdentity);
    }
    pump();
  }

  private void serving(PeerIdentity authenticatedIdentity) {
    identity = authenticatedIdentity;
    phase = Phase.DATA;
    authenticated = true;
    deadline.cancel(false);
    server.admission().authenticated(channel);
    audit().succeeded(authenticatedIdentity, sinceAccepted());
    idle = new IdleTimer(channel, server.idleTimeout(), () -> busy);
    idle.touch();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf bytes = (ByteBuf) msg;
    if (phase == Phase.CLOSED) {
      bytes.release();
      return;
    }
    buffer.add(ctx.alloc(), bytes);
    pump();
  }

  /** Takes as many whole messages from the buffer as it can while nothing runs elsewhere. */
  private void pump() {
    if (pumping) {
      // A call ran on the event loop and was answered inside the loop below, which takes the next message itself:
      // answering it from here instead would nest one pump per buffered message.
      return;
    }
    pumping = true;
    try {
      pumpMessages();
    } finally {
      pumping = false;
    }
  }

  private void pumpMessages() {
    try {
      while (!busy) {
        if (server.draining()) {
          // Shutting down: nothing new starts; a connection closes once its call in flight has been answered.
          close();
          return;
        }
        if (phase == Phase.CLOSED || !channel.isActive()) {
          break;
        }
        boolean progressed;
        if (phase == Phase.NEGOTIATING) {
          progressed = negotiationMessage();
        } else if (phase == Phase.DATA) {
          progressed = dataFrame();
        } else {
          progressed = false;
        }
        if (!progressed) {
          break;
        }
      }
    } catch (TException e) {
      closeRefused(e);
      return;
    }
    boolean negotiating = phase == Phase.NEGOTIATING;
    buffer.settle(channel, busy, phase == Phase.CLOSED, negotiating ? 5 : 4,
        negotiating ? server.limits().maxNegotiationMessageSize() : server.limits().maxFrameSize());
  }

  private boolean negotiationMessage() throws TException {
    if (buffer.available() < 5) {
      return false;
    }
    ByteBuf in = buffer.bytes();
    int start = in.readerIndex();
    byte status = in.getByte(start);
    if (status < 1 || status > 5) {
      // Not a status any Thrift peer sends: the negotiator names it and tells the peer, as the blocking server does.
      negotiator.receive(status, EMPTY);
    }
    int length;
    try {
      length = server.negotiationLimit().checkLength(in.getInt(start + 1));
    } catch (TTransportException e) {
      throw negotiator.refuse(e);
    }
    if (in.readableBytes() < 5 + length) {
      return false;
    }
    in.skipBytes(5);
    byte[] payload = new byte[length];
    in.readBytes(payload);
    busy = true;
    SaslNegotiator current = negotiator;
    try {
      server.authenticationPool().execute(() -> {
        if (!channel.isOpen()) {
          // Closed while its step waited (evicted, or the peer left): the mechanism has nothing to answer.
          channel.eventLoop().execute(() -> negotiationStepDone(null, null));
          return;
        }
        SaslDataCodec result = null;
        Exception failure = null;
        try {
          result = current.receive(status, payload);
        } catch (TException | RuntimeException e) {
          failure = e;
        } catch (Throwable e) {
          // An Error from the mechanism must still end the step, or the connection would wait on it for ever.
          failure = new HandshakeFailure(AuthFailure.SASL_BAD, "the SASL mechanism failed: "
              + PeerText.sanitize(String.valueOf(e)), e);
        }
        SaslDataCodec completed = result;
        Exception failed = failure;
        channel.eventLoop().execute(() -> negotiationStepDone(completed, failed));
      });
    } catch (RejectedExecutionException e) {
      // The queue holds a step for each unauthenticated connection and for as many evicted ones, so a pool that
      // refuses one is shutting down, or a flood of complete negotiation messages outruns the mechanisms.
      busy = false;
      refuse(new HandshakeFailure(AuthFailure.OVER_LIMIT, "the authentication pool accepts no more negotiation"
          + " steps (the server is shutting down, or " + server.authenticationQueueCapacity()
          + " steps are waiting)", null));
    }
    return true;
  }

  private void negotiationStepDone(SaslDataCodec completed, Exception failure) {
    busy = false;
    if (!channel.isOpen()) {
      // Closed while the step ran: the peer left (often right after telling why, which the failure holds), or the
      // deadline or an eviction closed it and was audited. channelInactive left the audit and the keys to this step.
      refuse(failure != null ? failure : completed != null ? closedByPeer() : closedMidNegotiation());
      if (completed != null) {
        completed.dispose();
        negotiator = null;
      }
      release();
      return;
    }
    if (failure != null) {
      refuse(failure);
      return;
    }
    if (completed != null) {
      sasl = new SaslStream(completed, server);
      negotiator = null;
      serving(completed.identity());
    }
    pump();
  }

  private boolean dataFrame() throws TException {
    if (sasl != null && sasl.hasPlain()) {
      byte[] message = sasl.nextMessage();
      if (message != null) {
        dispatch(message);
        return true;
      }
    }
    int available = buffer.available();
    if (available < 4) {
      return false;
    }
    ByteBuf in = buffer.bytes();
    int length = server.frameLimit().checkLength(in.getInt(in.readerIndex()));
    if (available < 4 + length) {
      return false;
    }
    idle.touch();
    if (sasl == null) {
      byte[] frame = new byte[4 + length];
      in.readBytes(frame);
      dispatch(frame);
      return true;
    }
    in.skipBytes(4);
    byte[] payload = new byte[length];
    in.readBytes(payload);
    byte[] answer = sasl.unwrap(payload);
    if (answer != null) {
      // The answer to a privacy key exchange, sent before any reply.
      channel.writeAndFlush(Unpooled.wrappedBuffer(SaslStream.lengthPrefix(answer.length), answer));
    }
    return true;
  }

  /**
   * Runs one call on a worker, the event loop going on with other connections; or, where the server runs calls on
   * the event loop, here and now.
   */
  private void dispatch(byte[] frame) {
    busy = true;
    // Counted until the reply is written, so a graceful shutdown waits for the reply and not just the call.
    server.beginCall();
    SaslStream data = sasl;
    PeerIdentity caller = data == null ? identity : data.identity();
    if (server.callsOnEventLoop()) {
      Reply reply = call(frame, caller, data);
      callDone(reply.frames, reply.close);
      return;
    }
    server.workers().execute(() -> {
      Reply reply = call(frame, caller, data);
      channel.eventLoop().execute(() -> callDone(reply.frames, reply.close));
    });
  }

  /** A call's reply frames, and whether the connection closes instead. */
  private static final class Reply {
    final List<byte[]> frames;
    final boolean close;

    Reply(List<byte[]> frames, boolean close) {
      this.frames = frames;
      this.close = close;
    }
  }

  /** Runs the processor on one request frame, on whatever thread runs calls. */
  private Reply call(byte[] frame, PeerIdentity caller, SaslStream data) {
    MemoryStream stream = new MemoryStream(frame);
    SecuredTransport transport = server.factory().framedTransport(stream, caller);
    try {
      server.processor().process(server.protocolFactory().getProtocol(transport),
          server.protocolFactory().getProtocol(transport));
      return new Reply(data == null ? stream.writtenChunks() : data.replyFrames(stream.written()), stream.closed());
    } catch (TException | RuntimeException e) {
      // The identity processor has reported a refused message; anything else is reported here.
      if (!stream.closed()) {
        audit().closing(channel.remoteAddress(), HandshakeAudit.Refusal.CALL, PeerText.describe(e));
      }
      return new Reply(List.of(), true);
    } catch (Throwable e) {
      // An Error (a service's AssertionError, a StackOverflowError, an OutOfMemoryError) must still end the call:
      // the connection closes, its call in flight is counted done, and the worker goes on with other connections.
      LOG.error("closing connection with {}: the call failed with {}", peer, PeerText.describe(e));
      LOG.debug("the call's error", e);
      return new Reply(List.of(), true);
    }
  }

  private void callDone(List<byte[]> frames, boolean close) {
    if (close || !channel.isOpen()) {
      callClosed();
      return;
    }
    if (frames.isEmpty()) {
      server.endCall();
      resume();
      return;
    }
    ChannelFuture write = ReplyWriter.write(ctx, server, frames);
    write.addListener(written -> {
      if (written.isSuccess()) {
        server.endCall();
        resume();
      } else {
        callClosed();
      }
    });
  }

  private void callClosed() {
    server.endCall();
    busy = false;
    channel.close();
    release();
  }

  private void resume() {
    busy = false;
    idle.touch();
    pump();
  }

  /** Whether a call runs for this connection; graceful shutdown waits for these. */
  boolean busy() {
    return busy;
  }

  /**
   * Audits a connection refused before it authenticated, which the main log may warn about, and closes it. Only the
   * first refusal of a connection is audited: a deadline, an eviction and the peer's leaving can all close it.
   */
  private void refuse(Throwable error) {
    if (!refused) {
      refused = true;
      audit().failed(channel.remoteAddress(), stage(), error, sinceAccepted());
    }
    close();
  }

  /**
   * The peer closed mid-negotiation: the negotiator tells what it had seen (nothing yet, or the QOP offer), as the
   * blocking server's does on end of file.
   */
  private TTransportException closedMidNegotiation() {
    return negotiator.refuse(closedByPeer());
  }

  private static TTransportException closedByPeer() {
    return new TTransportException(TTransportException.END_OF_FILE, "Socket is closed by peer.");
  }

  /**
   * The layer a connection that has not authenticated is in; a negotiator outlives the phase when the connection
   * closed while a step of it ran.
   */
  private Stage stage() {
    return phase == Phase.NEGOTIATING || negotiator != null || tlsRecord == null ? Stage.SASL : Stage.TLS;
  }

  private HandshakeAudit audit() {
    return server.factory().audit();
  }

  private Duration sinceAccepted() {
    return Duration.ofNanos(System.nanoTime() - acceptedNanos);
  }

  private void closeRefused(TException cause) {
    if (authenticated) {
      audit().closing(channel.remoteAddress(), HandshakeAudit.Refusal.FRAME, PeerText.describe(cause));
      close();
    } else {
      refuse(cause);
    }
  }

  private void close() {
    phase = Phase.CLOSED;
    channel.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (phase == Phase.NEGOTIATING && !busy) {
      // A step running elsewhere audits the connection when it ends, with what the peer said last.
      refuse(closedMidNegotiation());
    }
    phase = Phase.CLOSED;
    if (deadline != null) {
      deadline.cancel(false);
    }
    if (idle != null) {
      idle.stop();
    }
    buffer.release();
    if (!busy) {
      release();
    }
    ctx.fireChannelInactive();
  }

  /** Releases SASL keys once nothing else uses them. */
  private void release() {
    if (sasl != null) {
      sasl.dispose();
      sasl = null;
    }
    if (negotiator != null) {
      negotiator.dispose();
      negotiator = null;
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (phase == Phase.HANDSHAKE && tlsRecord != null) {
      // The handshake completion event follows and names the cause.
      return;
    }
    LOG.debug("connection with {} failed: {}", peer, PeerText.describe(cause));
    close();
  }
}
