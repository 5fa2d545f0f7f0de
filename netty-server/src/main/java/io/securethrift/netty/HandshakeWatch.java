package io.securethrift.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.securethrift.core.spi.TlsEngines;

/**
 * Sits in front of the {@link io.netty.handler.ssl.SslHandler} until the handshake ends and brackets each read that
 * feeds the engine, on the event loop thread where the engine verifies certificates (delegated tasks run inline), so
 * the TLS layer learns whether this connection's peer chain was verified or which certificate it refused.
 */
final class HandshakeWatch extends ChannelInboundHandlerAdapter {
  private final TlsEngines.HandshakeRecord record;

  HandshakeWatch(TlsEngines.HandshakeRecord record) {
    this.record = record;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    record.beforeStep();
    try {
      ctx.fireChannelRead(msg);
    } finally {
      record.afterStep();
    }
  }
}
