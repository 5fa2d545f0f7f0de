package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.SaslDataCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.thrift.TException;

/**
 * The data phase of a SASL connection, in {@link SaslNegotiation}'s place once it completed. Each frame's token is
 * unwrapped (taken as it is at {@code auth}) into a stream of plain bytes that carries no framing of its own, since a
 * token may hold part of a message or several; the {@link MessageScanner} cuts the stream into messages, each passed
 * on as a {@link Call} when the handler after this one asks, and a token is taken from the {@link FrameCodec} only
 * when no whole message is left. A reply goes out cut into frames of at most the negotiated size, each wrapped when
 * the QOP says so ({@link #frames}, on the thread that ran the call). The mechanism's keys are released once the
 * connection is closed and no call of it runs.
 */
final class SaslData extends ChannelInboundHandlerAdapter implements MessageSource, Call.Replies {
  private static final byte[] EMPTY = new byte[0];

  private final ServerContext server;
  private final SaslDataCodec codec;
  private final MessageScanner scanner;
  private final MessageSource frames;
  private ChannelHandlerContext ctx;
  /** The peer as the mechanism knows it; after a privacy key exchange, with the privacy in use. */
  private PeerIdentity identity;
  /** Unwrapped bytes not yet passed on. */
  private byte[] plain = EMPTY;
  private int plainLength;
  /** The handler after this one asked for a message and has not been given it. */
  private boolean asked;
  /** {@link #offer}'s loop is on the stack. */
  private boolean offering;
  /** A call passed on has not ended: its reply may be being wrapped. */
  private boolean callRunning;
  private boolean closed;
  private boolean released;

  SaslData(ServerContext server, SaslDataCodec codec, MessageSource frames) {
    this.server = server;
    this.codec = codec;
    this.frames = frames;
    this.identity = codec.identity();
    this.scanner = new MessageScanner(codec.identity(), server.limits().maxFrameSize());
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void next() {
    asked = true;
    offer();
  }

  /** A frame the FrameCodec passed on, as asked: its token's plain bytes join the stream. */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    byte[] unwrapped;
    try {
      frame.skipBytes(4);
      int length = frame.readableBytes();
      byte[] payload = new byte[length];
      frame.readBytes(payload);
      unwrapped = length == 0 ? EMPTY : codec.unwrap(payload, length);
    } catch (TException e) {
      refused(e);
      return;
    } finally {
      frame.release();
    }
    byte[] reply = codec.takeReply();
    if (reply != null) {
      // The answer to a privacy key exchange; the client sends no call before it arrives, so nothing is in flight.
      identity = codec.identity();
      ctx.writeAndFlush(Unpooled.wrappedBuffer(lengthPrefix(reply.length), reply));
    }
    appendPlain(unwrapped);
    offer();
  }

  /** Passes on the message asked for if the stream holds a whole one, else asks the FrameCodec for a token. */
  private void offer() {
    if (offering) {
      // Asked again by the handler the message went to, which answered it on the spot: the loop below passes the
      // next one itself, where passing it from here would nest one delivery per buffered message.
      return;
    }
    offering = true;
    try {
      while (asked && plainLength > 0) {
        byte[] message = firstMessage();
        if (message == null) {
          break;
        }
        asked = false;
        callRunning = true;
        ctx.fireChannelRead(new Call(message, identity, this));
      }
    } catch (TException e) {
      refused(e);
      return;
    } finally {
      offering = false;
    }
    if (asked) {
      // Outside the loop: the token may come at once, and its channelRead passes the message on or asks again while
      // the FrameCodec still delivers, so that it knows whether to keep reading.
      frames.next();
    }
  }

  /** The first whole message of the stream, framed for the framed transport, or null if none is whole yet. */
  private byte[] firstMessage() throws TException {
    int length = scanner.firstMessage(server.protocolFactory(), plain, plainLength);
    if (length < 0) {
      return null;
    }
    byte[] frame = new byte[4 + length];
    frame[0] = (byte) (length >>> 24);
    frame[1] = (byte) (length >>> 16);
    frame[2] = (byte) (length >>> 8);
    frame[3] = (byte) length;
    System.arraycopy(plain, 0, frame, 4, length);
    System.arraycopy(plain, length, plain, 0, plainLength - length);
    plainLength -= length;
    return frame;
  }

  private void appendPlain(byte[] bytes) {
    if (plainLength + bytes.length > plain.length) {
      plain = Arrays.copyOf(plain, Math.max(plainLength + bytes.length, 2 * plain.length));
    }
    System.arraycopy(bytes, 0, plain, plainLength, bytes.length);
    plainLength += bytes.length;
  }

  /** A token or message refused: nothing more is passed on, and the pipeline's last handler closes the connection. */
  private void refused(TException e) {
    asked = false;
    ctx.fireExceptionCaught(e);
  }

  /**
   * The reply's payload cut into frames of at most the negotiated size, each wrapped when the QOP says so. Runs on
   * the thread that ran the call, in call order, one call at a time.
   */
  @Override
  public List<byte[]> frames(byte[] framed) throws TException {
    if (framed.length == 0) {
      return List.of();
    }
    List<byte[]> frames = new ArrayList<>();
    for (int offset = 4; offset < framed.length; offset += codec.chunkSize()) {
      int length = Math.min(codec.chunkSize(), framed.length - offset);
      byte[] payload = codec.wraps() ? codec.wrap(framed, offset, length) : Arrays.copyOfRange(framed, offset,
          offset + length);
      frames.add(lengthPrefix(payload.length));
      frames.add(payload);
    }
    return frames;
  }

  private static byte[] lengthPrefix(int length) {
    return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
  }

  @Override
  public void callEnded() {
    callRunning = false;
    if (closed) {
      release();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    closed = true;
    if (!callRunning) {
      release();
    }
    ctx.fireChannelInactive();
  }

  /** Releases the mechanism's keys once nothing uses them. */
  private void release() {
    if (!released) {
      released = true;
      codec.dispose();
    }
  }
}
