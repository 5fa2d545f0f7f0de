package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import io.securethrift.core.ConfigProperty;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a call's reply on the wire, bounded: a reply the peer does not take at once counts toward
 * {@code securethrift.server.pending.replies.max} across connections until it is written, and gets
 * {@code securethrift.timeout.read} to be taken before its connection closes. Static: nothing per connection.
 */
final class ReplyWriter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);
  /** A reply larger than this is written as slices of about this size (see {@link #writeInSlices}). */
  static final int REPLY_SLICE = 256 * 1024;

  private ReplyWriter() {}

  /**
   * Writes and flushes a reply's wire frames (not empty) from {@code ctx}, on the event loop, and returns the future
   * that completes when all of it is written.
   */
  static ChannelFuture write(ChannelHandlerContext ctx, ServerContext server, List<byte[]> frames) {
    long bytes = 0;
    for (byte[] frame : frames) {
      bytes += frame.length;
    }
    ChannelFuture write = bytes <= REPLY_SLICE
        ? ctx.writeAndFlush(Unpooled.wrappedBuffer(frames.toArray(new byte[0][]))) : writeInSlices(ctx, frames);
    Channel channel = ctx.channel();
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
    return write;
  }

  /**
   * Writes a large reply as slices of about {@link #REPLY_SLICE} bytes, all at once and flushed together, and returns
   * the last slice's future, which completes when the whole reply is written. Netty copies each buffer it is given
   * from the heap into its pooled direct memory, rounded up to the pool's next size: the reply as one buffer took a
   * 1.25 MiB copy for a 1 MiB reply, for as long as a peer that does not read leaves it there, and such copies pinned
   * whole pool chunks. Slices are copied each to a size the pool holds exactly.
   */
  private static ChannelFuture writeInSlices(ChannelHandlerContext ctx, List<byte[]> frames) {
    ChannelFuture last = null;
    int from = 0;
    while (from < frames.size()) {
      int to = from;
      long bytes = 0;
      while (to < frames.size() && bytes < REPLY_SLICE) {
        bytes += frames.get(to++).length;
      }
      ByteBuf slice = Unpooled.wrappedBuffer(frames.subList(from, to).toArray(new byte[0][]));
      last = to < frames.size() ? ctx.write(slice) : ctx.writeAndFlush(slice);
      from = to;
    }
    return last;
  }
}
