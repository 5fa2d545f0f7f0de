package io.securethrift.zkbench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;

/**
 * TLS session resumption against a ZooKeeper server's client port, as ZooKeeper's own client would get it on a
 * reconnect: one {@link SslContext} built by ZooKeeper's {@link ClientX509Util} from the client configuration (what
 * {@code ClientCnxnSocketNetty} builds once per client object and reuses for its reconnects), then {@code count}
 * TLS connections to the same server, each handshake timed, then a {@code srvr} four-letter word answered (so the
 * client reads what the server sends after the handshake, a TLS 1.3 session ticket among it). A handshake counts as
 * resumed when its session has the first handshake's session id; the later handshakes' time tells the same story
 * where an engine gives a resumed TLS 1.3 session a new id. The time of a reconnect itself is not measurable
 * through ZooKeeper: it waits a random 0 to 1 s before each one.
 */
final class HandshakeProbe {
  private static final int TIMEOUT_SECONDS = 30;

  /** The first handshake's milliseconds, the median of the later ones', and how many of the later were resumed. */
  record Result(double firstMs, double laterMs, int resumed, int later) {}

  private HandshakeProbe() {}

  static Result run(ZKClientConfig config, String host, int port, int count) throws Exception {
    SslContext ssl;
    try (ClientX509Util x509 = new ClientX509Util()) {
      ssl = x509.createNettySslContextForClient(config);
    }
    EventLoopGroup group = new NioEventLoopGroup(1);
    try {
      double[] ms = new double[count];
      SSLSession first = null;
      int resumed = 0;
      for (int i = 0; i < count; i++) {
        SslHandler handler = ssl.newHandler(ByteBufAllocator.DEFAULT, host, port);
        long start = System.nanoTime();
        Channel channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .handler(new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(handler);
              }
            }).connect(host, port).syncUninterruptibly().channel();
        try {
          if (!handler.handshakeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no TLS handshake with " + host + ":" + port + " in " + TIMEOUT_SECONDS
                + " s");
          }
          handler.handshakeFuture().getNow();
          if (!handler.handshakeFuture().isSuccess()) {
            throw new IllegalStateException("TLS handshake with " + host + ":" + port + " failed",
                handler.handshakeFuture().cause());
          }
          ms[i] = (System.nanoTime() - start) / 1e6;
          SSLSession session = handler.engine().getSession();
          if (first == null) {
            first = session;
          } else if (sameSession(first, session)) {
            resumed++;
          }
          // A TLS 1.3 server sends its session ticket after the handshake, and a client that hangs up at once never
          // reads it: ask for srvr and wait until the server, having answered, closes, as a session would have read on.
          channel.writeAndFlush(Unpooled.copiedBuffer("srvr", StandardCharsets.US_ASCII));
          if (!channel.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException(host + ":" + port + " did not answer srvr over TLS in " + TIMEOUT_SECONDS
                + " s");
          }
        } finally {
          channel.close().syncUninterruptibly();
        }
      }
      double[] later = Arrays.copyOfRange(ms, 1, count);
      Arrays.sort(later);
      int n = later.length;
      double median = n == 0 ? Double.NaN : n % 2 == 1 ? later[n / 2] : (later[n / 2 - 1] + later[n / 2]) / 2;
      return new Result(ms[0], median, resumed, n);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  // Not the creation time: Conscrypt keeps it in whole seconds, so two sessions of the same second would match.
  private static boolean sameSession(SSLSession a, SSLSession b) {
    return a.getId().length > 0 && Arrays.equals(a.getId(), b.getId());
  }
}
