package io.securethrift.zookeeper.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;

/**
 * TLS session resumption against a ZooKeeper server's client port, as ZooKeeper's own client would get it on a
 * reconnect: one {@link SslContext} built by ZooKeeper's {@link ClientX509Util} from the client configuration (what
 * {@code ClientCnxnSocketNetty} builds once per client object and reuses for its reconnects), then {@code count}
 * TLS connections to the same server, each handshake timed and closed right after. A handshake counts as resumed when
 * its session is the first handshake's (same session id, or same creation time for TLS 1.3, whose resumed sessions
 * the JDK may give a new id). The time of a reconnect itself is not measurable through ZooKeeper: it waits a random
 * 0 to 1 s before each one.
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

  private static boolean sameSession(SSLSession a, SSLSession b) {
    boolean sameId = a.getId().length > 0 && Arrays.equals(a.getId(), b.getId());
    return sameId || a.getCreationTime() == b.getCreationTime();
  }
}
