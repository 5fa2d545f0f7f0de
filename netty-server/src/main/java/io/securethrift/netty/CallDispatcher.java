package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.transport.SecuredTransport;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a connection's calls once its handshakes are done ({@link Handshakes.Authenticated}). Each message it asks its
 * {@link MessageSource} for (a Thrift frame from the {@link FrameCodec}, or a {@link Call} from {@link SaslData}) runs
 * the processor on a worker, the event loop going on with other connections, or, where the server runs calls on the
 * event loop, here and now. The next message is asked for once the reply is written, so one call per connection is
 * in flight and replies keep their order, while the source reads on and holds at most one message behind the call. A
 * reply the peer does not take gets {@code securethrift.timeout.read}, and counts toward
 * {@code securethrift.server.pending.replies.max} across connections.
 */
final class CallDispatcher extends ChannelInboundHandlerAdapter implements Busy {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  private final ServerContext server;
  private final IdleTimeout idle;
  private Channel channel;
  private MessageSource source;
  /** The authenticated peer, the caller of Thrift frames; a Call from the SASL layer names its own. */
  private PeerIdentity identity;
  /** A call runs (off the event loop, unless the server runs calls there), or its reply is being written. */
  private boolean busy;

  CallDispatcher(ServerContext server, IdleTimeout idle) {
    this.server = server;
    this.idle = idle;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof Handshakes.Authenticated) {
      identity = ((Handshakes.Authenticated) event).identity;
      source = MessageSource.before(ctx);
      ready();
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  /** Asks for the next message, unless shutdown has begun or the connection is closing. */
  private void ready() {
    if (server.draining()) {
      // Shutting down: nothing new starts; a connection closes once its call in flight has been answered.
      Closing.close(channel);
      return;
    }
    if (!Closing.begun(channel) && channel.isActive()) {
      source.next();
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    dispatch(msg instanceof Call ? (Call) msg : thriftFrame((ByteBuf) msg));
  }

  /** A frame with no SASL layer under it: a call as it stands, from the authenticated peer, answered as written. */
  private Call thriftFrame(ByteBuf message) {
    try {
      byte[] frame = new byte[message.readableBytes()];
      message.readBytes(frame);
      return new Call(frame, identity, Call.Replies.AS_WRITTEN);
    } finally {
      message.release();
    }
  }

  /**
   * Runs one call on a worker, the event loop going on with other connections; or, where the server runs calls on
   * the event loop, here and now.
   */
  private void dispatch(Call call) {
    busy = true;
    // Counted until the reply is written, so a graceful shutdown waits for the reply and not just the call.
    server.beginCall();
    if (server.callsOnEventLoop()) {
      callDone(call, run(call));
      return;
    }
    server.workers().execute(() -> {
      Reply reply = run(call);
      channel.eventLoop().execute(() -> callDone(call, reply));
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
  private Reply run(Call call) {
    MemoryStream stream = new MemoryStream(call.frame);
    SecuredTransport transport = server.factory().framedTransport(stream, call.caller);
    try {
      server.processor().process(server.protocolFactory().getProtocol(transport),
          server.protocolFactory().getProtocol(transport));
      return new Reply(call.replies.frames(stream.written()), stream.closed());
    } catch (TException | RuntimeException e) {
      // The identity processor has reported a refused message; anything else is reported here.
      if (!stream.closed()) {
        server.factory().audit().closing(channel.remoteAddress(), HandshakeAudit.Refusal.CALL, PeerText.describe(e));
      }
      return new Reply(List.of(), true);
    } catch (Throwable e) {
      // An Error (a service's AssertionError, a StackOverflowError, an OutOfMemoryError) must still end the call:
      // the connection closes, its call in flight is counted done, and the worker goes on with other connections.
      LOG.error("closing connection with {}: the call failed with {}", channel.remoteAddress(), PeerText.describe(e));
      LOG.debug("the call's error", e);
      return new Reply(List.of(), true);
    }
  }

  private void callDone(Call call, Reply reply) {
    if (reply.close || !channel.isOpen()) {
      callClosed(call);
      return;
    }
    if (reply.frames.isEmpty()) {
      server.endCall();
      resume(call);
      return;
    }
    ByteBuf out = Unpooled.wrappedBuffer(reply.frames.toArray(new byte[0][]));
    long bytes = out.readableBytes();
    ChannelFuture write = channel.writeAndFlush(out);
    if (!write.isDone()) {
      server.replyPending(channel, bytes, write);
    }
    if (!write.isDone() && server.writeTimeout().toNanos() > 0) {
      // A peer that stops reading (a zero TCP window) would hold the connection, its reply and its next request for
      // ever: the connection stays busy, and busy is not idle. The reply gets as long as a read would.
      ScheduledFuture<?> deadline = channel.eventLoop().schedule(() -> {
        if (!write.isDone()) {
          LOG.debug("closing connection with {}: its reply was not taken within {} ({})", channel.remoteAddress(),
              server.writeTimeout(), ConfigProperty.TIMEOUT_READ.key());
          channel.close();
        }
      }, server.writeTimeout().toNanos(), TimeUnit.NANOSECONDS);
      write.addListener(done -> deadline.cancel(false));
    }
    write.addListener(written -> {
      if (written.isSuccess()) {
        server.endCall();
        resume(call);
      } else {
        callClosed(call);
      }
    });
  }

  private void callClosed(Call call) {
    server.endCall();
    busy = false;
    channel.close();
    call.replies.callEnded();
  }

  private void resume(Call call) {
    busy = false;
    call.replies.callEnded();
    idle.touch();
    ready();
  }

  /** Whether a call runs for this connection; graceful shutdown waits for these. */
  @Override
  public boolean busy() {
    return busy;
  }
}
