package io.securethrift.netty;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * A handler's decision to close its connection (a refusal, a failure, shutdown's drain), which the other handlers of
 * the connection can see: from then on nothing more is taken from the wire, and the close is not audited as the peer's
 * leaving. The channel's own state cannot tell them: a TLS connection stays open after {@code close()} until its
 * close_notify has been sent. The idle timeout, a reply's write deadline, the pending-replies bound, a failed call and
 * shutdown close the channel directly, without this mark, as they did before the handlers were split: so a connection
 * that shutdown closes mid-negotiation is still audited as one whose peer left.
 */
final class Closing {
  private static final AttributeKey<Boolean> BEGUN = AttributeKey.valueOf(Closing.class, "begun");

  private Closing() {}

  /** Marks the connection closing for every handler, then closes it. */
  static void close(Channel channel) {
    channel.attr(BEGUN).set(Boolean.TRUE);
    channel.close();
  }

  static boolean begun(Channel channel) {
    return channel.hasAttr(BEGUN);
  }
}
