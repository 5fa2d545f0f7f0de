package io.securethrift.testkit.ca;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A throw-away root certificate authority for TLS tests, on BouncyCastle.
 *
 * <p>It issues good leaf certificates through {@link #leaf()} and, because TLS tests are mostly
 * about refusing the wrong peer, each kind of bad certificate through one call: {@link #expired()},
 * {@link #notYetValid()}, {@link #signedByOtherCa()}, {@link #wrongSubjectAlternativeName()} and
 * {@link #issuedByNonCa()}; revoked ones through a CRL ({@link #crl(List)}) or an {@link OcspResponder}.
 * Everything is held in memory until written to a directory the caller chooses; passwords are always explicit
 * arguments.
 */
public final class TestCertificateAuthority {

  /** The default common name of the root certificate. */
  public static final String DEFAULT_COMMON_NAME = "securethrift test CA";

  private final IssuedCertificate root;

  private TestCertificateAuthority(IssuedCertificate root) {
    this.root = root;
  }

  /** Creates a CA named {@value #DEFAULT_COMMON_NAME} with an RSA 2048 key. */
  public static TestCertificateAuthority create() {
    return create(DEFAULT_COMMON_NAME, KeyType.RSA);
  }

  /**
   * Creates a CA whose self-signed root (CA:true, keyCertSign and cRLSign) is valid from one minute
   * ago for ten years.
   */
  public static TestCertificateAuthority create(String commonName, KeyType keyType) {
    Objects.requireNonNull(commonName, "commonName");
    KeyPair keys = keyType.generate();
    Instant notBefore = Instant.now().minus(Duration.ofMinutes(1));
    X509Certificate certificate =
        CertificateSigner.selfSignedCa(
            commonName, keys, notBefore, notBefore.plus(Duration.ofDays(3650)));
    return new TestCertificateAuthority(
        new IssuedCertificate(List.of(certificate), keys.getPrivate()));
  }

  /** Returns the root certificate, the trust anchor for everything this CA issues. */
  public X509Certificate certificate() {
    return root.certificate();
  }

  /** Returns the root certificate with its private key, e.g. to sign with it elsewhere. */
  public IssuedCertificate root() {
    return root;
  }

  /** Starts describing a good leaf certificate (see {@link LeafCertificateBuilder} defaults). */
  public LeafCertificateBuilder leaf() {
    return new LeafCertificateBuilder(root);
  }

  /** Issues a certificate that expired yesterday: {@code checkValidity()} throws expired. */
  public IssuedCertificate expired() {
    Instant now = Instant.now();
    return leaf().validity(now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1))).issue();
  }

  /** Issues a certificate valid only from tomorrow: {@code checkValidity()} throws. */
  public IssuedCertificate notYetValid() {
    Instant now = Instant.now();
    return leaf().validity(now.plus(Duration.ofDays(1)), now.plus(Duration.ofDays(2))).issue();
  }

  /**
   * Issues an otherwise good certificate whose only name is DNS {@code wrong.example}, so hostname
   * verification of {@code localhost} or {@code 127.0.0.1} fails.
   */
  public IssuedCertificate wrongSubjectAlternativeName() {
    return leaf().commonName("wrong.example").addSubjectAlternativeName("wrong.example").issue();
  }

  /**
   * Issues a localhost certificate from a second, unrelated CA; its chain ends in that CA's root,
   * which this CA's trust store does not contain.
   */
  public IssuedCertificate signedByOtherCa() {
    return create("securethrift other test CA", KeyType.RSA).leaf().issue();
  }

  /**
   * Issues a localhost certificate signed by one of this CA's leaf certificates (CA:false, no
   * keyCertSign). The chain is complete (leaf, leaf-as-issuer, root) but PKIX path validation must
   * reject it.
   */
  public IssuedCertificate issuedByNonCa() {
    IssuedCertificate notACa = leaf().commonName("not a CA").issue();
    return new LeafCertificateBuilder(notACa).issue();
  }

  /**
   * Issues a CRL, signed by this CA, that lists {@code revoked} (reason keyCompromise) and is current for a day. An
   * empty list gives a CRL that revokes nothing, which says every certificate of this CA is good.
   */
  public X509CRL crl(List<X509Certificate> revoked) {
    return CertificateSigner.crl(
        certificate(), root.privateKey(), revoked, Instant.now().plus(Duration.ofDays(1)));
  }

  /**
   * Writes {@link #crl(List)} as PEM to {@code file}, replacing it atomically (written beside it, then renamed), as an
   * operator should publish a CRL that running servers reload.
   *
   * @return the file written
   */
  public Path writeCrl(Path file, List<X509Certificate> revoked) {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    IssuedCertificate.write(temporary, Pem.crl(crl(revoked)));
    try {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return file;
  }

  /**
   * Returns an in-memory trust store holding only the root certificate, under alias {@code ca}.
   */
  public KeyStore trustStore(KeyStoreFormat format) {
    try {
      KeyStore store = KeyStore.getInstance(format.type());
      store.load(null, null);
      store.setCertificateEntry("ca", certificate());
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a " + format + " trust store", e);
    }
  }

  /**
   * Writes {@code dir/truststore.p12} or {@code dir/truststore.jks} holding the root certificate.
   *
   * @return the file written
   */
  public Path writeTrustStore(Path dir, KeyStoreFormat format, char[] password) {
    Objects.requireNonNull(password, "password");
    Path file = dir.resolve("truststore" + format.extension());
    IssuedCertificate.store(trustStore(format), file, password);
    return file;
  }

  /**
   * Writes {@code dir/ca.crt}, the root certificate as PEM.
   *
   * @return the file written
   */
  public Path writeCaPem(Path dir) {
    Path file = dir.resolve("ca.crt");
    IssuedCertificate.write(file, Pem.certificates(List.of(certificate())));
    return file;
  }
}
