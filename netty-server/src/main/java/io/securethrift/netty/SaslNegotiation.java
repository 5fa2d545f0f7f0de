package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.FrameReader;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.spi.SaslDataCodec;
import io.securethrift.core.spi.SaslNegotiator;
import java.util.concurrent.RejectedExecutionException;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;

/**
 * A connection's Thrift SASL negotiation, from the end of the stream layer ({@link Handshakes.StreamSecured}): each
 * negotiation message, taken from the {@link FrameCodec} in Thrift SASL's own framing, is evaluated on the
 * authentication pool, never on the event loop, one step at a time, by core's negotiator, so refusals and QOP checks
 * are the blocking server's. Its outcome goes to the {@link HandshakeGuard}, which audits it; when the negotiation
 * completes, {@link SaslData} takes this handler's place for the data phase.
 */
final class SaslNegotiation extends ChannelInboundHandlerAdapter implements Busy {
  private static final byte[] EMPTY = new byte[0];

  private final ServerContext server;
  private final HandshakeGuard guard;
  private final FrameCodec frames;
  private final FrameReader negotiationLimit;
  private ChannelHandlerContext ctx;
  private Channel channel;
  /** Null until the stream layer is done, and once the negotiation's mechanism is given up or handed on. */
  private SaslNegotiator negotiator;
  /** A step runs on the authentication pool. */
  private boolean busy;

  SaslNegotiation(ServerContext server, HandshakeGuard guard, FrameCodec frames) {
    this.server = server;
    this.guard = guard;
    this.frames = frames;
    this.negotiationLimit = new FrameReader(server.limits().maxNegotiationMessageSize(),
        ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE.key());
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.channel = ctx.channel();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof Handshakes.StreamSecured) {
      negotiator = server.factory().saslNegotiator(((Handshakes.StreamSecured) event).identity,
          new ChannelReplies(channel)).orElseThrow();
      frames.use(new NegotiationFraming());
      frames.next();
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  /**
   * Thrift SASL's negotiation messages: a status byte, then a 4-byte length checked against
   * {@code securethrift.limit.max.negotiation.message.size}. A header refused is told to the peer by the negotiator,
   * as the blocking server does.
   */
  private final class NegotiationFraming implements FrameFormat {
    @Override
    public int headerLength() {
      return 5;
    }

    @Override
    public int maxLength() {
      return server.limits().maxNegotiationMessageSize();
    }

    @Override
    public int payloadLength(ByteBuf in) throws TException {
      int start = in.readerIndex();
      byte status = in.getByte(start);
      if (status < 1 || status > 5) {
        // Not a status any Thrift peer sends: the negotiator names it and tells the peer, as the blocking server does.
        negotiator.receive(status, EMPTY);
      }
      try {
        return negotiationLimit.checkLength(in.getInt(start + 1));
      } catch (TTransportException e) {
        throw negotiator.refuse(e);
      }
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf message = (ByteBuf) msg;
    byte status;
    byte[] payload;
    try {
      status = message.readByte();
      payload = new byte[message.readInt()];
      message.readBytes(payload);
    } finally {
      message.release();
    }
    step(status, payload);
  }

  /** Evaluates one negotiation message on the authentication pool; the event loop goes on with other connections. */
  private void step(byte status, byte[] payload) {
    busy = true;
    SaslNegotiator current = negotiator;
    try {
      server.authenticationPool().execute(() -> {
        if (!channel.isOpen()) {
          // Closed while its step waited (evicted, or the peer left): the mechanism has nothing to answer.
          channel.eventLoop().execute(() -> stepDone(null, null));
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
        channel.eventLoop().execute(() -> stepDone(completed, failed));
      });
    } catch (RejectedExecutionException e) {
      // The queue holds a step for each unauthenticated connection and for as many evicted ones, so a pool that
      // refuses one is shutting down, or a flood of complete negotiation messages outruns the mechanisms.
      busy = false;
      guard.refuse(new HandshakeFailure(AuthFailure.OVER_LIMIT, "the authentication pool accepts no more negotiation"
          + " steps (the server is shutting down, or " + server.authenticationQueueCapacity()
          + " steps are waiting)", null));
    }
  }

  private void stepDone(SaslDataCodec completed, Exception failure) {
    busy = false;
    if (!channel.isOpen()) {
      // Closed while the step ran: the peer left (often right after telling why, which the failure holds), or the
      // deadline or an eviction closed it and was audited. channelInactive left the audit and the keys to this step.
      guard.refuse(failure != null ? failure : completed != null ? closedByPeer() : closedMidNegotiation());
      if (completed != null) {
        completed.dispose();
      } else {
        negotiator.dispose();
      }
      negotiator = null;
      return;
    }
    if (failure != null) {
      guard.refuse(failure);
      return;
    }
    if (completed == null) {
      frames.next();
      return;
    }
    // The data layer's codec holds the mechanism from here on.
    negotiator = null;
    frames.use(FrameFormat.thrift(server.limits()));
    ctx.pipeline().replace(this, "SaslData", new SaslData(server, completed, frames));
    guard.authenticated(completed.identity());
  }

  /** Whether a step runs; graceful shutdown waits for it. */
  @Override
  public boolean busy() {
    return busy;
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

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (negotiator != null && !busy) {
      if (!Closing.begun(channel)) {
        // The peer left mid-negotiation. (A step under way when it left audits the connection itself when it ends,
        // with what the peer said last.)
        guard.refuse(closedMidNegotiation());
      }
      negotiator.dispose();
      negotiator = null;
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof TException) {
      // A negotiation header the FrameCodec refused, the peer told why by the negotiator: a handshake failure.
      guard.refuse(cause);
      return;
    }
    ctx.fireExceptionCaught(cause);
  }
}
