package io.securethrift.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import java.util.Map;

/**
 * A handler whose work for its connection, a SASL negotiation step or a call and its reply, may be under way off the
 * event loop. Such work is not idleness, and a graceful shutdown lets it end: the handler closes the connection then.
 */
interface Busy {
  boolean busy();

  /** Whether a handler of {@code pipeline} has work under way; on the channel's event loop. */
  static boolean any(ChannelPipeline pipeline) {
    for (Map.Entry<String, ChannelHandler> entry : pipeline) {
      if (entry.getValue() instanceof Busy && ((Busy) entry.getValue()).busy()) {
        return true;
      }
    }
    return false;
  }
}
