package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;

/**
 * What a connection received and has not consumed yet, and when its reads stop. The handler that cuts messages out of
 * the bytes owns one: {@link SaslNegotiation} while the peer negotiates, then {@link FrameCodec}. Not a handler, so
 * it adds nothing to a read's path through the pipeline.
 *
 * <p>Bytes are copied out of each read into one buffer, null while there are none, so an idle connection holds no
 * buffer. Copied because keeping each read's buffer (a composite of reads) pins a whole receive buffer, 64 bytes to
 * 2 KiB, for every read: a peer trickling one byte at a time toward a large declared frame would make the server hold
 * a hundred times what it sent. The buffer grows by doubling as bytes arrive, never to what a header declares.
 *
 * <p>Reads go on while the message before runs (a SASL step or a call) and stop only once a whole next message, or
 * {@value #READ_AHEAD} bytes of it (or a header over its limit), waits: turning reads off and on for every call cost
 * two changes of the selector's interest set per call, where a request-reply client never sends its next message
 * before it has the reply. So at most one message waits behind the running one, and a peer that pipelines large calls
 * and never reads its replies makes the server hold its one reply and a read-ahead, not a reply and a whole message.
 */
final class ReadBuffer {
  /** The smallest buffer: a frame header and a small call fit. */
  static final int MIN_BUFFER = 256;
  /** How much of the next message is read while one runs: small calls whole, large ones when their turn comes. */
  static final int READ_AHEAD = 64 * 1024;

  private ByteBuf in;
  /** Reads were turned off because the next message waits behind the running one. */
  private boolean readsPaused;

  /** Appends what one read brought, from the channel's pooled allocator, and releases it. */
  void add(ByteBufAllocator alloc, ByteBuf bytes) {
    try {
      if (in == null) {
        in = alloc.buffer(Math.max(MIN_BUFFER, bytes.readableBytes()));
      }
      in.writeBytes(bytes);
    } finally {
      bytes.release();
    }
  }

  /** How many bytes wait to be consumed. */
  int available() {
    return in == null ? 0 : in.readableBytes();
  }

  /** The waiting bytes from the reader index on; only while {@link #available()} is positive. */
  ByteBuf bytes() {
    return in;
  }

  /**
   * After messages were taken: keeps the buffer small, then keeps reads going, or stops them while the next message
   * waits behind the running one ({@code working}). {@code header} is the length of a message's header, whose last
   * four bytes declare its length, at most {@code maxLength}. Nothing changes once the connection is {@code closed}.
   */
  void settle(Channel channel, boolean working, boolean closed, int header, long maxLength) {
    compact(working);
    if (working) {
      pauseIfWaiting(channel, closed, header, maxLength);
    } else if (readsPaused && !closed) {
      readsPaused = false;
      channel.config().setAutoRead(true);
    }
  }

  /**
   * Turns reads off once the next message is whole, or {@value #READ_AHEAD} bytes of it are here, or its header
   * declares a length over the limit (the check that refuses it runs when the message's turn comes): nothing more may
   * be buffered.
   */
  private void pauseIfWaiting(Channel channel, boolean closed, int header, long maxLength) {
    if (readsPaused || closed || available() < header) {
      return;
    }
    int declared = in.getInt(in.readerIndex() + header - 4);
    if (declared < 0 || declared > maxLength || available() - header >= Math.min(declared, READ_AHEAD)) {
      readsPaused = true;
      channel.config().setAutoRead(false);
    }
  }

  /**
   * Gives back the buffer once everything in it was consumed, else the part consumed when it is large; a buffer that
   * grew for a large message and now holds a small part of the next one is swapped for one its size. While a message
   * runs, what waits behind it moves to the heap: a peer that pipelines and never reads its replies would otherwise
   * keep its read-ahead in the pool's direct memory for as long as it likes, each one pinning a whole pool chunk. A
   * request-reply client has nothing behind its call, so its buffer goes back to the pool as before.
   */
  private void compact(boolean working) {
    if (in == null) {
      return;
    }
    if (!in.isReadable()) {
      in.release();
      in = null;
    } else if (working && in.isDirect() || in.capacity() > READ_AHEAD && in.capacity() > 4 * in.readableBytes()) {
      ByteBuf smaller = Unpooled.buffer(Math.max(MIN_BUFFER, in.readableBytes()));
      smaller.writeBytes(in);
      in.release();
      in = smaller;
    } else {
      in.discardSomeReadBytes();
    }
  }

  /**
   * Hands over what was not consumed (null if nothing) to the handler that takes the connection's bytes from here on,
   * with reads on again: that handler stops them itself if it must.
   */
  ByteBuf handOver(Channel channel) {
    if (readsPaused) {
      readsPaused = false;
      channel.config().setAutoRead(true);
    }
    ByteBuf rest = in;
    in = null;
    if (rest != null && !rest.isReadable()) {
      rest.release();
      rest = null;
    }
    return rest;
  }

  /** Lets go of the buffer: the connection closed. */
  void release() {
    if (in != null) {
      in.release();
      in = null;
    }
  }
}
