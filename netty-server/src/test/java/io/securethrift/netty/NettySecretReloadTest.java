package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.SecretVolume;
import io.securethrift.core.testservice.EchoHandler;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The non-blocking server's key material as Kubernetes mounts a {@code kubernetes.io/tls} Secret ({@link SecretVolume}:
 * {@code tls.crt}, {@code tls.key} and {@code ca.crt} linked through {@code ..data}, updated by renaming a new
 * {@code ..data_tmp} link over it): a renewal reaches the event loop's new engines while an open connection keeps its
 * certificate, and a certificate of another identity is refused by default. Reload interval 1 ms.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettySecretReloadTest {
  private static SecretVolume.Content tlsSecret(IssuedCertificate certificate, TestCertificateAuthority ca) {
    return version -> {
      certificate.writePem(version, "tls", null);
      ca.writeCaPem(version);
    };
  }

  private static SecurityConfig.Builder tls(TlsEngine engine, SecretVolume volume) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(volume.file("ca.crt"), StoreType.PEM, null);
  }

  private static NettyThriftServer start(SecurityConfig config) throws Exception {
    return NettyThriftServer.builder(config, new EchoService.Processor<>(new EchoHandler()))
        .protocolFactory(new TCompactProtocol.Factory()).workerThreads(4).eventLoopThreads(2)
        .shutdownGrace(Duration.ofSeconds(2)).build().start(new InetSocketAddress("127.0.0.1", 0));
  }

  private static BigInteger serial(IssuedCertificate certificate) {
    return certificate.certificate().getSerialNumber();
  }

  private static BigInteger serial(SecuredTransport transport) {
    return transport.peerIdentity().peerCertificates().get(0).getSerialNumber();
  }

  private static byte[] echo(SecuredTransport transport, byte[] payload) throws Exception {
    ByteBuffer reply = new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()))
        .echo(ByteBuffer.wrap(payload));
    byte[] bytes = new byte[reply.remaining()];
    reply.get(bytes);
    return bytes;
  }

  @EachTlsEngine
  void aSwappedSecretReachesNewHandshakesWhileOpenConnectionsKeepTheirs(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate first = ca.leaf().issue();
    SecretVolume volume = SecretVolume.create(dir.resolve("netty-secret-" + engine), tlsSecret(first, ca));
    Path firstVersion = volume.currentVersion();
    SecurityConfig server = tls(engine, volume).keyStore(volume.file("tls.crt"), StoreType.PEM, null)
        .tlsReloadInterval(Duration.ofMillis(1)).build();
    try (LogCapture log = LogCapture.start();
         NettyThriftServer netty = start(server);
         ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, volume).build());
         SecuredTransport open = clients.open("localhost", netty.port())) {
      assertEquals(serial(first), serial(open));
      assertArrayEquals(new byte[] {1}, echo(open, new byte[] {1}));

      IssuedCertificate renewed = ca.leaf().issue();
      volume.update(tlsSecret(renewed, ca));
      assertFalse(Files.exists(firstVersion), "the old version is deleted, as the kubelet does");

      BigInteger seen = serial(first);
      for (int attempt = 0; attempt < 50 && !seen.equals(serial(renewed)); attempt++) {
        try (SecuredTransport fresh = clients.open("localhost", netty.port())) {
          seen = serial(fresh);
        }
      }
      assertEquals(serial(renewed), seen);
      byte[] large = new byte[100_000];
      assertArrayEquals(large, echo(open, large), "the open connection carries on");
      assertEquals(serial(first), serial(open), "the open connection keeps the certificate it was made with");
      assertEquals(1, log.lines("reloaded TLS key and trust material").size(), log.text());
    }
  }

  @EachTlsEngine
  void aCertificateOfAnotherIdentityIsRefusedByDefault(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate first = ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost").issue();
    SecretVolume volume = SecretVolume.create(dir.resolve("netty-refuse-" + engine), tlsSecret(first, ca));
    SecurityConfig server = tls(engine, volume).keyStore(volume.file("tls.crt"), StoreType.PEM, null)
        .tlsReloadInterval(Duration.ofMillis(1)).build();
    try (LogCapture log = LogCapture.start();
         NettyThriftServer netty = start(server);
         ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, volume).build())) {
      volume.update(tlsSecret(ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost")
          .addSubjectAlternativeName("other.example").issue(), ca));
      for (int i = 0; i < 5; i++) {
        try (SecuredTransport fresh = clients.open("localhost", netty.port())) {
          assertEquals(serial(first), serial(fresh), "the certificate in use stays");
        }
      }
      List<String> refused = log.lines("refused: new handshakes keep the previous key and trust material");
      assertEquals(1, refused.size(), log.text());
      assertTrue(refused.get(0).contains("(alternative names added DNS:other.example)"), refused.get(0));
    }
  }
}
