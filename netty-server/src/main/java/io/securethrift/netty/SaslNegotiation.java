package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.core.spi.SaslDataCodec;
import io.securethrift.core.spi.SaslNegotiator;
import java.util.concurrent.RejectedExecutionException;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;

/**
 * A connection's Thrift SASL negotiation, once the stream layer is done ({@link HandshakeGuard.StreamSecured}). It
 * reads the negotiation messages itself (a status byte, then a 4-byte length checked against
 * {@code securethrift.limit.max.negotiation.message.size} before anything is allocated), each one a step evaluated
 * on the authentication pool, never on the event loop, by core's negotiator, so refusals and QOP checks are the
 * blocking server's. Refusals go to the {@link HandshakeGuard}, which audits them. Once the negotiation completes it
 * tells the guard, hands what it did not consume to {@link FrameCodec} and leaves the pipeline: calls never pass it.
 */
final class SaslNegotiation extends ChannelInboundHandlerAdapter {
  private static final byte[] EMPTY = new byte[0];

  private final ServerContext server;
  private final HandshakeGuard guard;
  /** What arrived before and during the negotiation, with the same read-ahead rule as calls. */
  private final ReadBuffer buffer = new ReadBuffer();
  private ChannelHandlerContext ctx;
  /** Null until the stream layer is done, and once the mechanism is given up or handed to the data layer. */
  private SaslNegotiator negotiator;
  /** A step runs on the authentication pool. */
  private boolean busy;

  SaslNegotiation(ServerContext server, HandshakeGuard guard) {
    this.server = server;
    this.guard = guard;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof HandshakeGuard.StreamSecured) {
      negotiator = server.factory().saslNegotiator(((HandshakeGuard.StreamSecured) event).identity,
          new ChannelReplies(ctx.channel())).orElseThrow();
      pump();
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf bytes = (ByteBuf) msg;
    if (guard.closing()) {
      bytes.release();
      return;
    }
    buffer.add(ctx.alloc(), bytes);
    pump();
  }

  /** Takes whole negotiation messages, one step at a time. */
  private void pump() {
    Channel channel = ctx.channel();
    try {
      while (!busy) {
        if (server.draining()) {
          // Shutting down: no step starts; a connection whose step runs closes when it ends.
          guard.close();
          return;
        }
        if (guard.closing() || negotiator == null || !channel.isActive() || !message()) {
          break;
        }
      }
    } catch (TException e) {
      guard.refuse(e);
      return;
    }
    buffer.settle(channel, busy, guard.closing(), 5, server.limits().maxNegotiationMessageSize());
  }

  /** Starts a step for the next message if it is whole. */
  private boolean message() throws TException {
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
    step(status, payload);
    return true;
  }

  /** Evaluates one message on the authentication pool; the event loop goes on with other connections. */
  private void step(byte status, byte[] payload) {
    busy = true;
    SaslNegotiator current = negotiator;
    Channel channel = ctx.channel();
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
    if (!ctx.channel().isOpen()) {
      // Closed while the step ran: the peer left (often right after telling why, which the failure holds), or the
      // deadline or an eviction closed it and was audited. channelInactive left the audit and the keys to this step.
      guard.refuse(failure != null ? failure : completed != null ? closedByPeer() : closedMidNegotiation());
      if (completed != null) {
        // The completed negotiation's data layer holds the mechanism now.
        completed.dispose();
      } else if (negotiator != null) {
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
      pump();
      return;
    }
    // The data layer holds the mechanism from here on; the frame codec takes the connection's bytes.
    negotiator = null;
    ByteBuf rest = buffer.handOver(ctx.channel());
    guard.authenticated(completed.identity(), new SaslStream(completed, server));
    ctx.pipeline().remove(this);
    if (rest != null) {
      // Sent behind the last negotiation message: the codec's first bytes. Netty still forwards from a removed
      // handler's context.
      ctx.fireChannelRead(rest);
    }
  }

  /** Whether a step runs; graceful shutdown waits for it. */
  boolean busy() {
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
      if (!guard.closing()) {
        // The peer left mid-negotiation. A step running elsewhere audits the connection when it ends, with what
        // the peer said last.
        guard.refuse(closedMidNegotiation());
      }
      negotiator.dispose();
      negotiator = null;
    }
    buffer.release();
    ctx.fireChannelInactive();
  }
}
