package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.IdentityChange;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.SecretVolume;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The thread-pool server's key material as Kubernetes mounts a {@code kubernetes.io/tls} Secret: {@code tls.crt},
 * {@code tls.key} and {@code ca.crt} are symbolic links through {@code ..data} to a timestamped directory, and an
 * update renames a new {@code ..data_tmp} link over {@code ..data} and deletes the old directory
 * ({@link SecretVolume}). The configuration names {@code dir/tls.crt} (PEM, its key in {@code tls.key} beside it); the
 * client trusts {@code dir/ca.crt}. The reload interval is 1 ms, so every new handshake checks the files.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class KubernetesSecretReloadTest {
  private static final String REFUSED = "; refused: new handshakes keep the previous key and trust material";

  private static SecretVolume.Content tlsSecret(IssuedCertificate certificate, TestCertificateAuthority ca) {
    return version -> {
      certificate.writePem(version, "tls", null);
      ca.writeCaPem(version);
    };
  }

  private static SecurityConfig.Builder tls(TlsEngine engine, SecretVolume volume) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(volume.file("ca.crt"), StoreType.PEM, null)
        .handshakeTimeout(Duration.ofSeconds(5)).readTimeout(Duration.ofSeconds(20))
        .connectTimeout(Duration.ofSeconds(5));
  }

  private static SecurityConfig server(TlsEngine engine, SecretVolume volume, IdentityChange change) {
    return tls(engine, volume).keyStore(volume.file("tls.crt"), StoreType.PEM, null)
        .tlsReloadInterval(Duration.ofMillis(1)).tlsReloadIdentityChange(change).build();
  }

  private static BigInteger serial(IssuedCertificate certificate) {
    return certificate.certificate().getSerialNumber();
  }

  private static BigInteger serial(SecuredTransport transport) {
    return transport.peerIdentity().peerCertificates().get(0).getSerialNumber();
  }

  /** Opens new connections until one presents {@code expected}'s serial (at most 50), and returns the last seen. */
  private static BigInteger awaitSerial(ClientTransportFactory clients, int port, BigInteger expected)
      throws Exception {
    BigInteger seen = null;
    for (int attempt = 0; attempt < 50 && !expected.equals(seen); attempt++) {
      try (SecuredTransport fresh = clients.open("localhost", port)) {
        seen = serial(fresh);
      }
    }
    return seen;
  }

  @EachTlsEngine
  void aSwappedSecretReachesNewHandshakesWhileOpenConnectionsKeepTheirs(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate first = ca.leaf().issue();
    SecretVolume volume = SecretVolume.create(dir.resolve("secret-swap-" + engine), tlsSecret(first, ca));
    Path firstVersion = volume.currentVersion();
    assertTrue(Files.isSymbolicLink(volume.file("tls.crt")));
    try (LogCapture log = LogCapture.start();
         ServerTransportFactory serverFactory = ServerTransportFactory.create(
             server(engine, volume, IdentityChange.REFUSE));
         ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, volume).build());
         EchoServer server = EchoServer.start(serverFactory);
         SecuredTransport open = clients.open("localhost", server.port())) {
      var client = EchoServer.client(open);
      assertEquals(serial(first), serial(open));

      IssuedCertificate renewed = ca.leaf().issue();
      volume.update(tlsSecret(renewed, ca));
      assertNotEquals(firstVersion, volume.currentVersion());
      assertEquals(List.of(volume.currentVersion()), volume.versionDirectories(), "the old version is deleted");
      assertFalse(Files.exists(firstVersion));

      assertEquals(serial(renewed), awaitSerial(clients, server.port(), serial(renewed)));
      assertEquals(ByteBuffer.wrap(new byte[] {7}), client.echo(ByteBuffer.wrap(new byte[] {7})),
          "the open connection carries on, its files deleted");
      assertEquals(serial(first), serial(open), "the open connection keeps the certificate it was made with");
      assertEquals(1, log.lines("reloaded TLS key and trust material").size(), log.text());
      assertTrue(log.text().contains("serial " + serial(renewed).toString(16)), log.text());
      assertEquals(List.of(), log.lines(REFUSED));
    }
  }

  /**
   * A Secret updated with a certificate of another subject and another name list is refused by default (the
   * configuration leaves securethrift.tls.reload.identity.change unset): new
   * handshakes keep the certificate in use, and one warning names the file, both identities (escaped: the new common
   * name holds CR/LF) and the setting. A renewal with the original names, published after it, is taken.
   */
  @EachTlsEngine
  void aCertificateOfAnotherIdentityIsRefusedByDefault(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate first = ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost").issue();
    SecretVolume volume = SecretVolume.create(dir.resolve("secret-refuse-" + engine), tlsSecret(first, ca));
    try (LogCapture log = LogCapture.start();
         ServerTransportFactory serverFactory = ServerTransportFactory.create(tls(engine, volume)
             .keyStore(volume.file("tls.crt"), StoreType.PEM, null).tlsReloadInterval(Duration.ofMillis(1)).build());
         ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, volume).build());
         EchoServer server = EchoServer.start(serverFactory)) {
      IssuedCertificate other = ca.leaf().commonName("intruder\r\nWARN forged").addSubjectAlternativeName("localhost")
          .addSubjectAlternativeName("evil.example").issue();
      volume.update(tlsSecret(other, ca));
      for (int i = 0; i < 5; i++) {
        try (SecuredTransport fresh = clients.open("localhost", server.port())) {
          assertEquals(serial(first), serial(fresh), "the certificate in use stays");
        }
      }
      List<String> refused = log.lines(REFUSED);
      assertEquals(1, refused.size(), "one warning per change, not one per check: " + log.text());
      String warning = refused.get(0);
      assertTrue(warning.contains(" WARN ") && warning.contains(volume.file("tls.crt").toString()), warning);
      assertTrue(warning.contains("subject CN=tserver became CN=intruder\\r\\nWARN forged"), warning);
      assertTrue(warning.contains("alternative names added DNS:evil.example"), warning);
      assertTrue(warning.contains("whose certificate is subject CN=tserver, alternative names DNS:localhost, serial "
          + serial(first).toString(16)), warning);
      assertTrue(warning.contains("Set securethrift.tls.reload.identity.change=allow"), warning);
      assertTrue(log.lines("WARN forged").stream().allMatch(line -> line.contains(REFUSED)),
          "no forged line: " + log.text());

      IssuedCertificate renewed = ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost").issue();
      volume.update(tlsSecret(renewed, ca));
      assertEquals(serial(renewed), awaitSerial(clients, server.port(), serial(renewed)));
      assertEquals(1, log.lines(REFUSED).size(), log.text());
    }
  }

  @EachTlsEngine
  void allowTakesACertificateOfAnotherIdentity(TlsEngine engine, TestCertificateAuthority ca,
      @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate first = ca.leaf().commonName("tserver").addSubjectAlternativeName("localhost").issue();
    SecretVolume volume = SecretVolume.create(dir.resolve("secret-allow-" + engine), tlsSecret(first, ca));
    try (LogCapture log = LogCapture.start();
         ServerTransportFactory serverFactory = ServerTransportFactory.create(
             server(engine, volume, IdentityChange.ALLOW));
         ClientTransportFactory clients = ClientTransportFactory.create(tls(engine, volume).build());
         EchoServer server = EchoServer.start(serverFactory)) {
      IssuedCertificate other = ca.leaf().commonName("tserver-2").addSubjectAlternativeName("localhost").issue();
      volume.update(tlsSecret(other, ca));
      assertEquals(serial(other), awaitSerial(clients, server.port(), serial(other)));
      assertEquals(List.of(), log.lines(REFUSED));
      List<String> taken = log.lines("taken, as securethrift.tls.reload.identity.change=allow");
      assertEquals(1, taken.size(), log.text());
      assertTrue(taken.get(0).contains("subject CN=tserver became CN=tserver-2"), taken.get(0));
    }
  }
}
