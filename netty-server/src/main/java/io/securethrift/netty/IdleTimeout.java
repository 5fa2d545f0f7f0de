package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes an authenticated connection that has neither had a frame taken nor a call ended for
 * {@code securethrift.server.idle.timeout}; a call under way is not idleness. It sits right after the
 * {@link FrameCodec}, where it sees each frame as its turn comes, SASL tokens included, and the
 * {@link CallDispatcher} tells it when a call ends. Only a time is noted for each: the one timer re-arms itself for
 * what remains when it fires, rather than being cancelled and scheduled again on every call.
 */
final class IdleTimeout extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  private final ServerContext server;
  private Channel channel;
  private ScheduledFuture<?> check;
  private long lastActivityNanos;

  IdleTimeout(ServerContext server) {
    this.server = server;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    touch();
    ctx.fireChannelRead(msg);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof Handshakes.Authenticated) {
      // The clock runs from authentication; before it the handshake deadline applies instead.
      touch();
      if (server.idleTimeout().toNanos() > 0) {
        schedule(server.idleTimeout().toNanos());
      }
    }
    ctx.fireUserEventTriggered(event);
  }

  /** Restarts the idle clock: a frame was taken, or a call ended. */
  void touch() {
    lastActivityNanos = System.nanoTime();
  }

  private void schedule(long delayNanos) {
    check = channel.eventLoop().schedule(this::idleCheck, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void idleCheck() {
    if (!channel.isOpen()) {
      return;
    }
    long remaining = server.idleTimeout().toNanos() - (System.nanoTime() - lastActivityNanos);
    boolean busy = Busy.any(channel.pipeline());
    if (busy || remaining > 0) {
      // A running call is not idleness; its end restarts the clock.
      schedule(busy ? server.idleTimeout().toNanos() : remaining);
      return;
    }
    LOG.debug("closing idle connection with {} ({})", channel.remoteAddress(),
        ConfigProperty.SERVER_IDLE_TIMEOUT.key());
    channel.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (check != null) {
      check.cancel(false);
    }
    ctx.fireChannelInactive();
  }
}
