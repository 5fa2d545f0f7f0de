package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerText;
import org.apache.thrift.TException;

/**
 * Cuts an authenticated connection's bytes into Thrift frames (a 4-byte length, checked against
 * {@code securethrift.limit.max.frame.size} before anything is allocated for it) and passes each whole message to
 * {@link CallDispatcher} as the {@code byte[]} the call reads, framed: the frame itself, or with SASL a message cut
 * from the tokens' unwrapped stream ({@link SaslStream}). A message is passed only when no call runs: the dispatcher
 * tells the codec when its call was answered ({@link #callEnded}), so one call per connection is in flight and
 * replies keep their order, and a header is checked when its frame's turn comes. Reads go on while a call runs, up to
 * what {@link ReadBuffer} allows to wait behind it.
 *
 * <p>The dispatcher's "answered", the SASL layer, the idle timer ({@link IdleTimer}) and the connection end
 * ({@link AgeLimit}, which closes the connection here, between calls) are method calls, not pipeline
 * events or handlers of their own: per call, the one step the pipeline adds over a single handler is this handler's
 * {@code fireChannelRead} to the dispatcher, with the {@code byte[]} the call needs anyway.
 *
 * <p>Bytes that arrive before authentication are kept for then; with SASL none do, as {@link SaslNegotiation} before
 * this handler takes them until the negotiation completes and then hands over what it did not consume.
 */
final class FrameCodec extends ChannelInboundHandlerAdapter {
  private final ServerContext server;
  private final ReadBuffer buffer = new ReadBuffer();
  private ChannelHandlerContext ctx;
  /** Null until authenticated. */
  private IdleTimer idle;
  /** Null until authenticated, and without an end (maximum age or Kerberos ticket end). */
  private AgeLimit age;
  /** Null without SASL. */
  private SaslStream sasl;
  private boolean serving;
  /** A message was passed on and its call has not been answered. */
  private boolean callRunning;
  /** {@link #pump} is on the stack. */
  private boolean pumping;
  /** This handler decided to close the connection, or it failed or closed: nothing more is taken from it. */
  private boolean closed;

  FrameCodec(ServerContext server) {
    this.server = server;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    // The dispatcher after this handler learns the peer first: the first message may go to it at once.
    ctx.fireUserEventTriggered(event);
    if (event instanceof HandshakeGuard.Authenticated) {
      HandshakeGuard.Authenticated authenticated = (HandshakeGuard.Authenticated) event;
      sasl = authenticated.sasl;
      idle = new IdleTimer(ctx.channel(), server.idleTimeout(), () -> callRunning);
      age = AgeLimit.start(ctx.channel(), authenticated.identity, authenticated.acceptedNanos,
          server.connectionMaxAge(), server.factory().audit(), this::pump);
      serving = true;
      idle.touch();
      pump();
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf bytes = (ByteBuf) msg;
    if (closed) {
      bytes.release();
      return;
    }
    buffer.add(ctx.alloc(), bytes);
    pump();
  }

  /** The call of the last message passed on was answered (its reply written): the next one may go. */
  void callEnded() {
    callRunning = false;
    idle.touch();
    pump();
  }

  /** Passes on as many whole messages as it can while no call runs. */
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
    Channel channel = ctx.channel();
    try {
      while (!callRunning) {
        if (server.draining()) {
          // Shutting down: nothing new starts; a connection closes once its call in flight has been answered.
          close();
          return;
        }
        if (age != null && age.reached() && !closed && nothingReceived()) {
          // Old enough, and between calls: the last reply is written and no byte of a next call has come.
          age.closing();
          close();
          return;
        }
        if (closed || !serving || !channel.isActive() || !nextMessage()) {
          break;
        }
      }
    } catch (TException e) {
      server.factory().audit().closing(channel.remoteAddress(), HandshakeAudit.Refusal.FRAME, PeerText.describe(e));
      close();
      return;
    }
    buffer.settle(channel, callRunning, closed, 4, server.limits().maxFrameSize());
  }

  /** Whether no byte of a next call is held, received or unwrapped. */
  private boolean nothingReceived() {
    return buffer.available() == 0 && (sasl == null || !sasl.hasPlain());
  }

  /** Takes the next frame if it is whole: passes on a message, or with SASL adds a token to the stream. */
  private boolean nextMessage() throws TException {
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
      ctx.writeAndFlush(Unpooled.wrappedBuffer(SaslStream.lengthPrefix(answer.length), answer));
    }
    return true;
  }

  private void dispatch(byte[] message) {
    callRunning = true;
    ctx.fireChannelRead(message);
  }

  private void close() {
    closed = true;
    ctx.channel().close();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Whatever failed, nothing more is taken from this connection; the dispatcher logs it and closes.
    closed = true;
    ctx.fireExceptionCaught(cause);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    closed = true;
    if (idle != null) {
      idle.stop();
    }
    if (age != null) {
      age.stop();
    }
    buffer.release();
    ctx.fireChannelInactive();
  }
}
