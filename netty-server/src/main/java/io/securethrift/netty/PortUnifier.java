package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.securethrift.core.internal.PortUnification;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Supplier;

/**
 * The first handler of a unified port's connection ({@code securethrift.server.port.unification}): reads the first
 * byte without taking it and puts the connection's layers in its place, the TLS handlers when it starts a TLS
 * handshake, else nothing, and the connection is served as plaintext at once (or refused when the port was switched to
 * TLS only). Removing it hands the bytes it held to the handlers after it. The guard's handshake deadline covers the
 * wait for the first byte.
 */
final class PortUnifier extends ByteToMessageDecoder {
  private final ServerContext server;
  private final HandshakeGuard guard;
  private final Supplier<ChannelHandler[]> tls;

  PortUnifier(ServerContext server, HandshakeGuard guard, Supplier<ChannelHandler[]> tls) {
    this.server = server;
    this.guard = guard;
    this.tls = tls;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (!in.isReadable() || guard.closing()) {
      return;
    }
    if (PortUnification.startsTls(in.getUnsignedByte(in.readerIndex()))) {
      ChannelHandler[] handlers = tls.get();
      // Each goes right after this one, so the last goes first.
      for (int i = handlers.length - 1; i >= 0; i--) {
        ctx.pipeline().addAfter(ctx.name(), null, handlers[i]);
      }
    } else if (server.factory().plaintextAccepted()) {
      SaslNegotiation sasl = ctx.pipeline().get(SaslNegotiation.class);
      if (sasl != null) {
        ctx.pipeline().remove(sasl);
      }
      guard.authenticated(server.factory().plaintextIdentity((InetSocketAddress) ctx.channel().remoteAddress()),
          null);
    } else {
      in.skipBytes(in.readableBytes());
      guard.refuse(PortUnification.refusal());
      return;
    }
    ctx.pipeline().remove(this);
  }
}
