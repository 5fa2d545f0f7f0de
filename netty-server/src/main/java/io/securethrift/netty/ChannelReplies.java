package io.securethrift.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.Arrays;

/**
 * Where a SASL negotiator writes its replies: each flush sends what was written since the last one to the channel.
 * Written from the authentication pool; Netty queues writes from other threads onto the event loop in order.
 */
final class ChannelReplies extends InMemoryTransport {
  private final Channel channel;
  private byte[] buffer = new byte[128];
  private int length;

  ChannelReplies(Channel channel) {
    this.channel = channel;
  }

  @Override
  public boolean isOpen() {
    return channel.isOpen();
  }

  @Override
  public void open() {
    // The channel is open when the negotiation starts.
  }

  @Override
  public void close() {
    channel.close();
  }

  @Override
  public int read(byte[] buf, int off, int len) {
    throw new UnsupportedOperationException("negotiation messages are read by SaslNegotiation");
  }

  @Override
  public void write(byte[] buf, int off, int len) {
    if (length + len > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(2 * buffer.length, length + len));
    }
    System.arraycopy(buf, off, buffer, length, len);
    length += len;
  }

  @Override
  public void flush() {
    if (length > 0) {
      channel.writeAndFlush(Unpooled.wrappedBuffer(Arrays.copyOf(buffer, length)));
      length = 0;
    }
  }
}
