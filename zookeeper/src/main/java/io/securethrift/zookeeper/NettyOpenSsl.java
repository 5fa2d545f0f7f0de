package io.securethrift.zookeeper;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.TlsSettings;
import io.securethrift.tls.internal.NettyOpenSslEngine;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Engine {@code openssl} on ZooKeeper's client port. ZooKeeper 3.9's Netty client ({@code ClientCnxnSocketNetty})
 * and Netty server ({@code NettyServerCnxnFactory}) build their {@code SslContext} with Netty's
 * {@code SslContextBuilder} and take its provider from {@code zookeeper.ssl.sslProvider} (zoo.cfg
 * {@code ssl.sslProvider}): {@code OPENSSL} is netty-tcnative's BoringSSL, which encrypts straight from Netty's
 * direct buffers, where the JDK provider (JSSE, or Conscrypt as the JVM's default) gets a heap copy of every record.
 * Quorum connections are blocking sockets on a JCA {@code SSLContext} and have no such setting: they stay on JSSE.
 *
 * <p>netty-tcnative is the user's to add, in the release the Netty on the class path was built with (ZooKeeper 3.9.5
 * ships Netty 4.1.130, built with netty-tcnative 2.0.74): a mismatched pair can load and still fail every handshake.
 * {@link NettyOpenSslEngine} is the engine; this class writes ZooKeeper's settings for it.
 */
final class NettyOpenSsl {
  /** The key after ZooKeeper's {@code zookeeper.ssl.} or zoo.cfg's {@code ssl.} prefix. */
  static final String SSL_PROVIDER = "sslProvider";
  /** Netty's {@code SslProvider} name for netty-tcnative. */
  static final String OPENSSL = "OPENSSL";

  private NettyOpenSsl() {}

  /**
   * Writes {@code prefix + sslProvider=OPENSSL} when the configuration runs on {@link NettyOpenSslEngine}, nothing
   * for engines with a JCA provider (ZooKeeper's default {@code JDK}).
   */
  static void putProvider(TlsSettings tls, String prefix, BiConsumer<String, String> sink) {
    if (tls.engineProvider() instanceof NettyOpenSslEngine) {
      sink.accept(prefix + SSL_PROVIDER, OPENSSL);
    }
  }

  /**
   * Fails unless Netty's OpenSSL engine loads in this JVM: for a zoo.cfg that asks for it itself (a securethrift
   * configuration naming {@code openssl} is refused when it is built).
   *
   * @throws ConfigException naming {@code securethrift.tls.engine}, with Netty's reason
   */
  static void requireAvailable() {
    NettyOpenSslEngine engine = new NettyOpenSslEngine();
    Optional<String> reason = engine.unavailableReason();
    if (reason.isPresent()) {
      throw new ConfigException(ConfigProperty.TLS_ENGINE.key(), "openssl: " + reason.get() + "; " + engine.fix());
    }
  }
}
