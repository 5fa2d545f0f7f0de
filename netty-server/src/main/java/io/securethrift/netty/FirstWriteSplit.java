package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Sends the first application write of a TLS connection, when it is larger than {@value #FIRST_CHUNK} bytes, as two:
 * the first {@value #FIRST_CHUNK} bytes flushed alone, then the rest; later writes pass unchanged. A Conscrypt 2.9.0
 * TLS 1.3 server engine sends its session tickets with the first application write; when that write fills a whole
 * 16 KiB record, tickets plus record overflow the packet buffer the engine asks for, and {@code SslHandler} repeats
 * the wrap for ever (google/conscrypt#1049: an event loop at 100 % and the reply never sent). A small first record
 * leaves room for the tickets, as the blocking server's TLS socket does. This module does not know which engine the
 * TLS layer chose, and on JSSE the split costs one extra small record once per connection, so every TLS connection
 * gets it.
 */
final class FirstWriteSplit extends ChannelOutboundHandlerAdapter {
  static final int FIRST_CHUNK = 4096;

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    try {
      if (msg instanceof ByteBuf && ((ByteBuf) msg).readableBytes() > FIRST_CHUNK) {
        ByteBuf whole = (ByteBuf) msg;
        ctx.write(whole.readRetainedSlice(FIRST_CHUNK));
        ctx.flush();
      }
      ctx.write(msg, promise);
    } finally {
      ctx.pipeline().remove(this);
    }
  }
}
