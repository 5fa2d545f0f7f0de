package io.securethrift.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import java.util.Map;

/**
 * A handler that passes the handler after it one message each time it is asked, and none unasked. A message is taken
 * from what was received (its header checked, its token unwrapped) only when its turn comes: a peer that sends ahead
 * of a running call has its next message refused, or read, after that call is answered, as it always was.
 */
interface MessageSource {
  /**
   * Asks for one message, on the event loop; it is passed on with {@code fireChannelRead} before this returns if it
   * is here, else when its bytes arrive. Asked again while passing one on (a call answered on the spot), the source
   * passes the next one from its own loop once the first returns, so a run of buffered messages does not nest one
   * delivery inside the other.
   */
  void next();

  /** The source nearest before {@code ctx}'s handler in its pipeline: where that handler asks for its messages. */
  static MessageSource before(ChannelHandlerContext ctx) {
    MessageSource nearest = null;
    for (Map.Entry<String, ChannelHandler> entry : ctx.pipeline()) {
      if (entry.getValue() == ctx.handler()) {
        return nearest;
      }
      if (entry.getValue() instanceof MessageSource) {
        nearest = (MessageSource) entry.getValue();
      }
    }
    throw new IllegalStateException(ctx.name() + " is not in its pipeline");
  }
}
