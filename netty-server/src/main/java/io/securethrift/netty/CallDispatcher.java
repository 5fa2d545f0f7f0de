package io.securethrift.netty;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.transport.SecuredTransport;
import java.util.List;
import org.apache.thrift.TException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an authenticated connection's calls, the pipeline's last handler. Each message {@link FrameCodec} passes on (a
 * {@code byte[]}, framed) runs the processor on a worker, the event loop going on with other connections, or, where
 * the server runs calls on the event loop, here and now; its reply is written ({@link ReplyWriter}) and only then is
 * the codec told to pass the next, so replies keep their order. A call that fails closes its connection; so does any
 * failure that reaches this handler, the last one.
 */
final class CallDispatcher extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  private final ServerContext server;
  private final FrameCodec frames;
  private ChannelHandlerContext ctx;
  /** The authenticated peer: the caller of every message without SASL. */
  private PeerIdentity identity;
  /** The SASL data layer, which names the caller and wraps replies; null without SASL, and once its keys are gone. */
  private SaslStream sasl;
  /** A call runs (off the event loop, unless the server runs calls there), or its reply is being written. */
  private boolean busy;

  CallDispatcher(ServerContext server, FrameCodec frames) {
    this.server = server;
    this.frames = frames;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof HandshakeGuard.Authenticated) {
      HandshakeGuard.Authenticated authenticated = (HandshakeGuard.Authenticated) event;
      identity = authenticated.identity;
      sasl = authenticated.sasl;
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    dispatch((byte[]) msg);
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
      ctx.channel().eventLoop().execute(() -> callDone(reply.frames, reply.close));
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
        server.factory().audit().closing(ctx.channel().remoteAddress(), HandshakeAudit.Refusal.CALL,
            PeerText.describe(e));
      }
      return new Reply(List.of(), true);
    } catch (Throwable e) {
      // An Error (a service's AssertionError, a StackOverflowError, an OutOfMemoryError) must still end the call:
      // the connection closes, its call in flight is counted done, and the worker goes on with other connections.
      LOG.error("closing connection with {}: the call failed with {}", ctx.channel().remoteAddress(),
          PeerText.describe(e));
      LOG.debug("the call's error", e);
      return new Reply(List.of(), true);
    }
  }

  /** On the event loop: writes the reply, and once it is written lets the codec pass the next message. */
  private void callDone(List<byte[]> replyFrames, boolean close) {
    if (close || !ctx.channel().isOpen()) {
      callClosed();
      return;
    }
    if (replyFrames.isEmpty()) {
      server.endCall();
      resume();
      return;
    }
    ChannelFuture write = ReplyWriter.write(ctx, server, replyFrames);
    write.addListener(written -> {
      if (written.isSuccess()) {
        server.endCall();
        resume();
      } else {
        callClosed();
      }
    });
  }

  /** The call ended its connection: the codec is never told to go on, so nothing more is taken. */
  private void callClosed() {
    server.endCall();
    busy = false;
    ctx.channel().close();
    release();
  }

  private void resume() {
    busy = false;
    frames.callEnded();
  }

  /** Whether a call runs for this connection; graceful shutdown waits for these. */
  boolean busy() {
    return busy;
  }

  /** Releases the SASL keys once nothing uses them. */
  private void release() {
    if (sasl != null) {
      sasl.dispose();
      sasl = null;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (!busy) {
      // A call running elsewhere still wraps its reply with the keys; its end releases them.
      release();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset, a record that does not decrypt, a handler's failure: the connection cannot go on.
    LOG.debug("connection with {} failed: {}", ctx.channel().remoteAddress(), PeerText.describe(cause));
    ctx.channel().close();
  }
}
