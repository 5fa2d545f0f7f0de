package io.securethrift.ingest.bench;

import io.securethrift.harness.BenchSecurity;
import io.securethrift.core.Secret;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.function.Function;

/**
 * Rotates a fault run's certificates in place, the way an operator does: new store files are written beside the
 * live ones and moved over them atomically, so a server or client re-reading them never sees half a file. The steps
 * follow a CA roll: new certificates from the same CA; then both CAs trusted; then certificates from the new CA.
 */
public final class CertificateRotation {
  /** The steps of a CA roll, in order. */
  public enum Step {
    /** Both sides' certificates replaced by new ones from the CA they already trust. */
    REISSUE_FROM_SAME_CA("re-issue from the same CA"),
    /** Both sides made to trust the current and the next CA, ahead of certificates from the next one. */
    TRUST_BOTH_CAS("trust both CAs"),
    /** Both sides' certificates replaced by ones from the next CA. */
    REISSUE_FROM_NEXT_CA("re-issue from the next CA");

    private final String description;

    Step(String description) {
      this.description = description;
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /**
   * The live store files (PKCS12, one password) and how each side's certificate is issued by a given CA.
   *
   * @param ca the CA that issued the live certificates
   */
  public record Stores(TestCertificateAuthority ca, Path serverKeyStore, Path clientKeyStore, Path trustStore,
      Secret password, Function<TestCertificateAuthority, IssuedCertificate> serverCertificate,
      Function<TestCertificateAuthority, IssuedCertificate> clientCertificate) {
    /** The stores of {@code security}. */
    public static Stores of(BenchSecurity security) {
      return new Stores(security.ca(), security.serverKeyStore(), security.clientKeyStore(), security.trustStore(),
          security.storePassword(), BenchSecurity::serverCertificate, BenchSecurity::clientCertificate);
    }
  }

  private final Stores stores;
  private final Path staging;
  private final TestCertificateAuthority next = TestCertificateAuthority.create("securethrift next CA",
      KeyType.RSA);

  /** Rotates {@code stores}, writing the new files in {@code staging} (on the same file system) first. */
  public CertificateRotation(Stores stores, Path staging) throws IOException {
    this.stores = stores;
    this.staging = Files.createDirectories(staging);
  }

  /** Carries out {@code step}; the steps must come in their order. */
  public void apply(Step step) throws IOException {
    switch (step) {
      case REISSUE_FROM_SAME_CA -> reissue(stores.ca());
      case TRUST_BOTH_CAS -> trustBothCas();
      case REISSUE_FROM_NEXT_CA -> reissue(next);
      default -> throw new IllegalArgumentException("unknown rotation step " + step);
    }
  }

  private void trustBothCas() throws IOException {
    try {
      KeyStore both = stores.ca().trustStore(KeyStoreFormat.PKCS12);
      both.setCertificateEntry("next-ca", next.certificate());
      Path file = staging.resolve("truststore.p12");
      try (OutputStream out = Files.newOutputStream(file)) {
        both.store(out, stores.password().chars());
      }
      replace(file, stores.trustStore());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write the trust store with both CAs", e);
    }
  }

  private void reissue(TestCertificateAuthority ca) throws IOException {
    char[] password = stores.password().chars();
    replace(stores.serverCertificate().apply(ca).writeKeyStore(staging, "server", KeyStoreFormat.PKCS12, password),
        stores.serverKeyStore());
    replace(stores.clientCertificate().apply(ca).writeKeyStore(staging, "client", KeyStoreFormat.PKCS12, password),
        stores.clientKeyStore());
  }

  private static void replace(Path fresh, Path live) throws IOException {
    Files.move(fresh, live, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
