package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A short-lived server certificate is renewed on disk (same names, new key and serial) while a client keeps calling:
 * the open connection carries on and new handshakes present the new certificate, without a restart. The reload
 * interval is 1 ms, so the check runs on every new handshake and the test waits on the condition, not on a clock.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class KeyRotationTest {
  @EachTlsEngine
  void newHandshakesUseRotatedCertificate(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate before = ca.leaf().commonName("server").addSubjectAlternativeName("localhost")
        .validFor(Duration.ofMinutes(5)).issue();
    Path store = TlsTestConfigs.keyStore(before, dir, "rotating-" + engine);
    Path trust = TlsTestConfigs.trustStore(ca, dir);
    try (ServerTransportFactory serverFactory = ServerTransportFactory.create(
            TlsTestConfigs.tls(engine, store, trust).tlsReloadInterval(Duration.ofMillis(1)).build());
         ClientTransportFactory clientFactory = ClientTransportFactory.create(
             TlsTestConfigs.tls(engine, null, trust).build())) {
      EchoServer server = EchoServer.start(serverFactory);
      try (SecuredTransport open = clientFactory.open("localhost", server.port())) {
        var client = EchoServer.client(open);
        assertEquals(serial(before), serial(open));
        IssuedCertificate after = ca.leaf().commonName("server").addSubjectAlternativeName("localhost").issue();
        TlsTestConfigs.keyStore(after, dir, "rotating-" + engine);
        BigInteger seen = serial(before);
        for (int attempt = 0; attempt < 50 && seen.equals(serial(before)); attempt++) {
          assertEquals(ByteBuffer.wrap(new byte[] {(byte) attempt}),
              client.echo(ByteBuffer.wrap(new byte[] {(byte) attempt})), "open connection carries on");
          try (SecuredTransport fresh = clientFactory.open("localhost", server.port())) {
            seen = serial(fresh);
          }
        }
        assertEquals(serial(after), seen);
        assertTrue(open.isOpen());
        assertEquals(serial(before), serial(open), "the open connection keeps the certificate it was made with");
        assertEquals(ByteBuffer.wrap(new byte[] {9}), client.echo(ByteBuffer.wrap(new byte[] {9})));
      } finally {
        server.close();
      }
    }
  }

  static BigInteger serial(IssuedCertificate certificate) {
    return certificate.certificate().getSerialNumber();
  }

  /** The serial number of the certificate the server presented on {@code transport}. */
  static BigInteger serial(SecuredTransport transport) {
    return transport.peerIdentity().peerCertificates().get(0).getSerialNumber();
  }
}
