package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.OcspMode;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.RevokedPeer;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.OcspResponder;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The non-blocking server refuses a revoked client as the thread-pool server does, on both engines: by a CRL file and
 * by a real {@code openssl ocsp} responder, audited as {@code tls-alert} with a message naming the serial; a good
 * client is served.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyRevocationTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static SecurityConfig.Builder tls(TlsEngine engine, Path keyStore, Path trustStore) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NEED);
  }

  private static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(2).eventLoopThreads(1)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static String whoAmI(SecurityConfig client, int port) throws TException {
    try (ClientTransportFactory clients = ClientTransportFactory.create(client);
        SecuredTransport transport = clients.open("localhost", port)) {
      return new EchoService.Client(transport.protocol(new TCompactProtocol.Factory())).whoAmI();
    }
  }

  /** Alice is served; mallory is refused, counted and audited as tls-alert naming her serial. */
  private static void refusesMallory(SecurityConfig server, SecurityConfig alice, SecurityConfig mallory,
      X509Certificate malloryCertificate) throws Exception {
    try (LogCapture log = LogCapture.start();
        NettyThriftServer netty = start(server)) {
      assertTrue(whoAmI(alice, netty.port()).contains("principal=alice"));
      assertThrows(TException.class, () -> {
        try (ClientTransportFactory clients = ClientTransportFactory.create(mallory);
            SecuredTransport transport = clients.open("localhost", netty.port())) {
          new EchoService.Client(transport.protocol(new TCompactProtocol.Factory())).echo(ByteBuffer.allocate(1));
        }
      });
      RevokedPeer.assertRefusedAndAudited(log, netty.counters(), malloryCertificate, "mallory", WAIT);
    }
  }

  @EachTlsEngine
  void aRevokedClientIsRefusedByCrlAndByOcsp(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    Path serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    try (OcspResponder ocsp = OcspResponder.create(ca, dir)) {
      IssuedCertificate alice = ca.leaf().commonName("alice").ocspResponder(ocsp.url()).issue();
      IssuedCertificate mallory = ca.leaf().commonName("mallory").ocspResponder(ocsp.url()).issue();
      ocsp.good(alice.certificate()).revoke(mallory.certificate()).start();
      Path aliceStore = alice.writeKeyStore(dir, "alice", KeyStoreFormat.PKCS12, PASSWORD);
      Path malloryStore = mallory.writeKeyStore(dir, "mallory", KeyStoreFormat.PKCS12, PASSWORD);
      SecurityConfig aliceConfig = tls(engine, aliceStore, trustStore).build();
      SecurityConfig malloryConfig = tls(engine, malloryStore, trustStore).build();
      Path crl = ca.writeCrl(dir.resolve("revoked.crl"), List.of(mallory.certificate()));
      refusesMallory(tls(engine, serverStore, trustStore).crlFiles(List.of(crl)).build(), aliceConfig,
          malloryConfig, mallory.certificate());
      refusesMallory(tls(engine, serverStore, trustStore).ocsp(OcspMode.HARD_FAIL).build(), aliceConfig,
          malloryConfig, mallory.certificate());
    }
  }
}
