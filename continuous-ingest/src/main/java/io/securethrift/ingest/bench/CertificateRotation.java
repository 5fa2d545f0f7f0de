package io.securethrift.ingest.bench;

import io.securethrift.kdc.ca.KeyStoreFormat;
import io.securethrift.kdc.ca.KeyType;
import io.securethrift.kdc.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * Rotates the fault run's certificates in place, the way an operator does: new store files are written beside the
 * live ones and moved over them atomically, so a server or client re-reading them never sees half a file. The steps
 * follow a CA roll: new certificates from the same CA; then both CAs trusted; then certificates from the new CA.
 */
final class CertificateRotation {
  private final BenchSecurity security;
  private final Path staging;
  private final TestCertificateAuthority next = TestCertificateAuthority.create("securethrift next CA",
      KeyType.RSA);

  CertificateRotation(BenchSecurity security, Path staging) {
    this.security = security;
    this.staging = staging;
  }

  /** Replaces the server's and the client's certificates with new ones from the CA they already trust. */
  void reissueFromSameCa() throws IOException {
    reissue(security.ca());
  }

  /** Makes both sides trust the current and the next CA, ahead of certificates from the next one. */
  void trustBothCas() throws IOException {
    try {
      KeyStore both = security.ca().trustStore(KeyStoreFormat.PKCS12);
      both.setCertificateEntry("next-ca", next.certificate());
      Path file = staging.resolve("truststore.p12");
      try (OutputStream out = Files.newOutputStream(file)) {
        both.store(out, security.storePassword().chars());
      }
      replace(file, security.trustStore());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write the trust store with both CAs", e);
    }
  }

  /** Replaces both certificates with ones from the next CA; call {@link #trustBothCas()} first. */
  void reissueFromNextCa() throws IOException {
    reissue(next);
  }

  private void reissue(TestCertificateAuthority ca) throws IOException {
    char[] password = security.storePassword().chars();
    replace(ca.leaf().commonName(BenchSecurity.HOST).issue().writeKeyStore(staging, "server", KeyStoreFormat.PKCS12,
        password), security.serverKeyStore());
    replace(ca.leaf().commonName("ingest").issue().writeKeyStore(staging, "client", KeyStoreFormat.PKCS12, password),
        security.clientKeyStore());
  }

  private static void replace(Path fresh, Path live) throws IOException {
    Files.move(fresh, live, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
