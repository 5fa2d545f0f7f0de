package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.apache.thrift.TException;

/**
 * Cuts the received bytes into frames of a {@link FrameFormat} and passes the handler after it one whenever it asks
 * ({@link MessageSource}). A header is checked when its frame's turn comes, so one over the limit sent behind a
 * running call is refused once that call is answered, and nothing is allocated for what a header declares; a refused
 * header goes down the pipeline as a {@link TException}.
 *
 * <p>Reads go on while the handler after it works on a frame, and stop only when a whole next frame, or
 * {@value #READ_AHEAD} bytes of it (or a header over its limit), is waiting: turning reads off and on for every call
 * cost two changes of the selector's interest set per call, where a request-reply client never sends its next message
 * before it has the reply. Bytes are only ever buffered up to the size a header declared, after that size was checked,
 * and at most one frame waits, so a peer that pipelines large calls and never reads its replies makes the server hold
 * its one reply and a read-ahead, not a reply and a whole message.
 */
final class FrameCodec extends ChannelInboundHandlerAdapter implements MessageSource {
  /** The smallest receive accumulation buffer: a frame header and a small call fit. */
  private static final int MIN_BUFFER = 256;
  /** How much of the next message is read while a call runs: small calls whole, large ones when their turn comes. */
  private static final int READ_AHEAD = 64 * 1024;

  private final ServerContext server;
  private FrameFormat format;
  private ChannelHandlerContext ctx;
  private Channel channel;
  /**
   * Bytes received and not yet consumed, copied out of each read; null while there are none, so an idle connection
   * holds no buffer. Copied because keeping each read's buffer (a composite of reads) pins a whole receive buffer,
   * 64 bytes to 2 KiB, for every read: a peer trickling one byte at a time toward a large declared frame would
   * make the server hold a hundred times what it sent.
   */
  private ByteBuf in;
  /** The handler after this one asked for a frame and has not been given it. */
  private boolean asked;
  /** It has asked at least once; until then nothing is being worked on, and reads have no reason to stop. */
  private boolean started;
  /** {@link #deliver} is on the stack. */
  private boolean delivering;
  /** Reads were turned off because a whole frame waits behind the one being worked on. */
  private boolean readsPaused;

  FrameCodec(ServerContext server) {
    this.server = server;
    this.format = FrameFormat.thrift(server.limits());
  }

  /** Frames from the next one on have this format: Thrift SASL's negotiation and its data phase frame differently. */
  void use(FrameFormat next) {
    format = next;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.channel = ctx.channel();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf bytes = (ByteBuf) msg;
    if (Closing.begun(channel)) {
      bytes.release();
      return;
    }
    try {
      if (in == null) {
        in = ctx.alloc().buffer(Math.max(MIN_BUFFER, bytes.readableBytes()));
      }
      // Grows by doubling: at most twice what has arrived, whatever a header declared.
      in.writeBytes(bytes);
    } finally {
      bytes.release();
    }
    deliver();
  }

  @Override
  public void next() {
    asked = true;
    started = true;
    deliver();
  }

  /** Passes on the frame asked for if it is whole; then keeps the buffer small and reads going, or paused. */
  private void deliver() {
    if (delivering) {
      // Asked again by the handler the frame went to, which answered it on the spot: the loop below takes the next
      // frame itself, where answering it from here would nest one delivery per buffered frame.
      return;
    }
    delivering = true;
    try {
      while (asked) {
        if (server.draining()) {
          // Shutting down: nothing new starts; a connection closes once its work in hand is done.
          Closing.close(channel);
          return;
        }
        if (Closing.begun(channel) || !channel.isActive() || !passWholeFrame()) {
          break;
        }
      }
    } finally {
      delivering = false;
    }
    compact();
    if (!asked && started) {
      pauseIfWaiting();
    } else if (readsPaused && !Closing.begun(channel)) {
      readsPaused = false;
      channel.config().setAutoRead(true);
    }
  }

  /** Passes on the first frame if all of it is here: false if it is not, or its header was refused. */
  private boolean passWholeFrame() {
    int header = format.headerLength();
    if (available() < header) {
      return false;
    }
    int length;
    try {
      length = format.payloadLength(in);
    } catch (TException e) {
      asked = false;
      ctx.fireExceptionCaught(e);
      return false;
    }
    if (in.readableBytes() < header + length) {
      return false;
    }
    asked = false;
    ctx.fireChannelRead(in.readRetainedSlice(header + length));
    return true;
  }

  /**
   * While the handler after this one works on a frame, turns reads off once the next frame is whole, or once its
   * header declares a length over the limit (the check that refuses it runs when the frame's turn comes): nothing more
   * may be buffered.
   */
  private void pauseIfWaiting() {
    if (readsPaused || Closing.begun(channel)) {
      return;
    }
    int header = format.headerLength();
    if (available() < header) {
      return;
    }
    int declared = in.getInt(in.readerIndex() + header - 4);
    if (declared < 0 || declared > format.maxLength() || available() - header >= Math.min(declared, READ_AHEAD)) {
      readsPaused = true;
      channel.config().setAutoRead(false);
    }
  }

  private int available() {
    return in == null ? 0 : in.readableBytes();
  }

  /**
   * Gives back the buffer once everything in it was consumed, else the part consumed when it is large; a buffer that
   * grew for a large message and now holds a small part of the next one is swapped for one its size.
   */
  private void compact() {
    if (in == null) {
      return;
    }
    if (!in.isReadable()) {
      in.release();
      in = null;
    } else if (in.capacity() > READ_AHEAD && in.capacity() > 4 * in.readableBytes()) {
      ByteBuf smaller = channel.alloc().buffer(Math.max(MIN_BUFFER, in.readableBytes()));
      smaller.writeBytes(in);
      in.release();
      in = smaller;
    } else {
      in.discardSomeReadBytes();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (in != null) {
      in.release();
      in = null;
    }
    ctx.fireChannelInactive();
  }
}
