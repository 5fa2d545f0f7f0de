package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.securethrift.core.ConfigProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose unsent bytes would pass {@code securethrift.server.write.buffer.fatal}: its peer is not
 * reading. Reads already stop while a reply is pending, so this bounds what one connection can make the server hold.
 */
final class WriteLimit extends ChannelOutboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);
  private final long fatal;

  WriteLimit(long fatal) {
    this.fatal = fatal;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    ChannelOutboundBuffer buffer = ctx.channel().unsafe().outboundBuffer();
    long pending = buffer == null ? 0 : buffer.totalPendingWriteBytes();
    long adding = msg instanceof ByteBuf ? ((ByteBuf) msg).readableBytes() : 0;
    if (pending + adding > fatal) {
      LOG.warn("closing connection with {}: {} unsent bytes would pass {} ({} bytes)", ctx.channel().remoteAddress(),
          pending + adding, ConfigProperty.SERVER_WRITE_BUFFER_FATAL.key(), fatal);
      io.netty.util.ReferenceCountUtil.release(msg);
      promise.setFailure(new java.io.IOException("write buffer over " + ConfigProperty.SERVER_WRITE_BUFFER_FATAL.key()));
      ctx.close();
      return;
    }
    ctx.write(msg, promise);
  }
}
