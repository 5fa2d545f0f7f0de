package io.securethrift.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.audit.HandshakeAudit;
import io.securethrift.core.identity.PeerText;
import org.apache.thrift.TException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's last handler: an exception no handler before it dealt with closes the connection. A frame refused
 * after authentication (a header over the limit, a token that fails its check, bytes that are no message of the
 * protocol) goes through the audit's per-kind warning window, logged before the close; anything else (a reset, a
 * record that does not decrypt) is logged at debug. Refusals before authentication never get here: the
 * {@link SaslNegotiation} and the {@link HandshakeGuard} audit those as handshake failures.
 */
final class ConnectionErrors extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(NettyThriftServer.class);

  private final HandshakeAudit audit;

  ConnectionErrors(HandshakeAudit audit) {
    this.audit = audit;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof TException) {
      audit.closing(ctx.channel().remoteAddress(), HandshakeAudit.Refusal.FRAME, PeerText.describe(cause));
    } else {
      LOG.debug("connection with {} failed: {}", ctx.channel().remoteAddress(), PeerText.describe(cause));
    }
    Closing.close(ctx.channel());
  }
}
