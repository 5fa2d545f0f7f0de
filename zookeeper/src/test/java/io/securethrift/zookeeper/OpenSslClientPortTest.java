package io.securethrift.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Engine openssl: a standalone server whose TLS client port runs on Netty's OpenSSL engine (netty-tcnative), with
 * mutual authentication, and clients on the same engine, through ZooKeeper's own Netty client and SSL contexts.
 */
class OpenSslClientPortTest {
  @RegisterExtension
  static CertificateAuthorityExtension certs = new CertificateAuthorityExtension();

  private static final char[] PASSWORD = "zk-test-pw".toCharArray();
  private static final int TIMEOUT_SECONDS = 30;
  private static LocalEnsemble zk;
  private static SecurityConfig server;
  private static SecurityConfig client;
  private static Path dir;

  @BeforeAll
  static void start() {
    TestCertificateAuthority ca = certs.ca();
    dir = certs.directory();
    Path trust = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    server = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.OPENSSL)
        .keyStore(ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD), null,
            Secret.of(PASSWORD))
        .trustStore(trust, null, Secret.of(PASSWORD)).clientAuth(ClientAuth.NEED).build();
    client = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.OPENSSL)
        .keyStore(ca.leaf().commonName("client").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12,
            PASSWORD), null, Secret.of(PASSWORD))
        .trustStore(trust, null, Secret.of(PASSWORD)).build();
    zk = LocalEnsemble.builder().security(server).clientPort(false).secureClientPort(true).start();
    zk.awaitServing(List.of(1), ZooKeeperClientSecurity.clientConfig(client), Duration.ofSeconds(60));
  }

  @AfterAll
  static void stop() {
    if (zk != null) {
      zk.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
  void opensslClientAndServerNegotiate(String protocol) throws Exception {
    SecurityConfig version = client.toBuilder().tlsProtocols(List.of(protocol)).build();
    ZKClientConfig config = ZooKeeperClientSecurity.clientConfig(version);
    assertEquals("OPENSSL", config.getProperty("zookeeper.ssl.sslProvider"));
    assertEquals(protocol, handshake(config));
    String path = "/openssl-" + protocol;
    try (ZooKeeper c = Clients.connect(zk.connectString(true), config, Duration.ofSeconds(TIMEOUT_SECONDS))) {
      c.create(path, "hello".getBytes(StandardCharsets.UTF_8), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      assertEquals("hello", new String(c.getData(path, false, null), StandardCharsets.UTF_8));
    }
    // The server's side: netty-tcnative's native library is loaded only by an OPENSSL SslContext.
    String maps = Files.readString(Path.of("/proc", Long.toString(zk.pids().get(0)), "maps"));
    assertTrue(maps.contains("netty_tcnative"), "the server JVM has not loaded netty-tcnative");
  }

  @Test
  void jsseClientTalksToTheOpensslServer() throws Exception {
    ZKClientConfig config = ZooKeeperClientSecurity.clientConfig(client.toBuilder().tlsEngine(TlsEngine.JSSE).build());
    assertEquals(null, config.getProperty("zookeeper.ssl.sslProvider"));
    try (ZooKeeper c = Clients.connect(zk.connectString(true), config, Duration.ofSeconds(TIMEOUT_SECONDS))) {
      assertTrue(c.exists("/", false) != null);
    }
  }

  @Test
  void clientWithoutCertificateIsRefused() {
    SecurityConfig anonymous = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.OPENSSL)
        .tlsProtocols(List.of("TLSv1.2")).trustStore(client.tls().trustStore().get().path(), null,
            Secret.of(PASSWORD)).build();
    assertThrows(SSLException.class, () -> handshake(ZooKeeperClientSecurity.clientConfig(anonymous)));
    assertTrue(zk.isServing(1, ZooKeeperClientSecurity.clientConfig(client)), "the server must stay up");
  }

  @Test
  void clientCertificateOfAnotherCaIsRefused() {
    Path key = certs.ca().signedByOtherCa().writeKeyStore(dir, "other-ca-client", KeyStoreFormat.PKCS12, PASSWORD);
    SecurityConfig stranger = client.toBuilder().tlsProtocols(List.of("TLSv1.2")).keyStore(key, null,
        Secret.of(PASSWORD)).build();
    assertThrows(SSLException.class, () -> handshake(ZooKeeperClientSecurity.clientConfig(stranger)));
  }

  @Test
  void serverCertificateOfAnotherCaIsRefusedByTheClient() {
    Path otherTrust = TestCertificateAuthority.create().writeTrustStore(dir.resolve("other"), KeyStoreFormat.PKCS12,
        PASSWORD);
    SecurityConfig distrustful = client.toBuilder().trustStore(otherTrust, null, Secret.of(PASSWORD)).build();
    assertThrows(SSLException.class, () -> handshake(ZooKeeperClientSecurity.clientConfig(distrustful)));
  }

  @Test
  void serverWithoutNettyOpenSslRefusesToStartNamingTheSetting() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Path zooCfg = ZooKeeperServerConfig.builder(server).confDir(dir.resolve("no-openssl")).secureClientPort(port)
        .build().write();
    Path log = dir.resolve("no-openssl.log");
    // Netty's own switch makes its OpenSSL engine unavailable, as a class path without netty-tcnative would.
    try (ChildJvm jvm = ChildJvm.builder(SecureZooKeeperServerMain.class)
        .jvmOptions(List.of("-Xmx128m", "-Dio.netty.handler.ssl.noOpenSsl=true")).args(List.of(zooCfg.toString()))
        .log(log).start()) {
      assertTrue(jvm.process().waitFor(60, TimeUnit.SECONDS), "the server kept running without netty-tcnative");
      assertEquals(1, jvm.process().exitValue());
      String text = Files.readString(log);
      assertTrue(text.contains("securethrift.tls.engine") && text.contains("netty-tcnative"), text);
    }
  }

  /**
   * One TLS handshake with the server on the SSL context ZooKeeper's Netty client builds from {@code config}, which
   * must be netty-tcnative's; the negotiated protocol, or the handshake's {@link SSLException}.
   */
  private static String handshake(ZKClientConfig config) throws Exception {
    SslContext ssl;
    try (ClientX509Util x509 = new ClientX509Util()) {
      ssl = x509.createNettySslContextForClient(config);
    }
    String[] hostPort = zk.connectString(true).split(",")[0].split(":");
    int port = Integer.parseInt(hostPort[1]);
    EventLoopGroup group = new NioEventLoopGroup(1);
    try {
      SslHandler handler = ssl.newHandler(ByteBufAllocator.DEFAULT, hostPort[0], port);
      assertInstanceOf(ReferenceCountedOpenSslEngine.class, handler.engine());
      Channel channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(handler);
            }
          }).connect(hostPort[0], port).syncUninterruptibly().channel();
      try {
        assertTrue(handler.handshakeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "no handshake result");
        if (!handler.handshakeFuture().isSuccess()) {
          Throwable cause = handler.handshakeFuture().cause();
          throw cause instanceof SSLException ? (SSLException) cause : new SSLException(cause);
        }
        assertFalse(handler.engine().getSession().getProtocol().isEmpty());
        return handler.engine().getSession().getProtocol();
      } finally {
        channel.close().syncUninterruptibly();
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
