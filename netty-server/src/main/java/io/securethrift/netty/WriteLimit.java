package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.audit.HandshakeAudit;

/**
 * Closes a connection whose unsent bytes would pass {@code securethrift.server.write.buffer.fatal}: its peer is not
 * reading. Reads already stop while a reply is pending, so this bounds what one connection can make the server hold.
 */
final class WriteLimit extends ChannelOutboundHandlerAdapter {
  private final long fatal;
  private final HandshakeAudit audit;

  WriteLimit(long fatal, HandshakeAudit audit) {
    this.fatal = fatal;
    this.audit = audit;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    ChannelOutboundBuffer buffer = ctx.channel().unsafe().outboundBuffer();
    long pending = buffer == null ? 0 : buffer.totalPendingWriteBytes();
    long adding = msg instanceof ByteBuf ? ((ByteBuf) msg).readableBytes() : 0;
    if (pending + adding > fatal) {
      audit.closing(ctx.channel().remoteAddress(), HandshakeAudit.Refusal.REPLY, (pending + adding)
          + " unsent bytes would pass " + ConfigProperty.SERVER_WRITE_BUFFER_FATAL.key() + " (" + fatal + " bytes)");
      io.netty.util.ReferenceCountUtil.release(msg);
      promise.setFailure(
          new java.io.IOException("write buffer over " + ConfigProperty.SERVER_WRITE_BUFFER_FATAL.key()));
      ctx.close();
      return;
    }
    ctx.write(msg, promise);
  }
}
