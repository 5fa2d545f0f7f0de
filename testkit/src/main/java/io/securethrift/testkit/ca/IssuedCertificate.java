package io.securethrift.testkit.ca;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A certificate with its private key and issuer chain, in the spirit of okhttp-tls's {@code
 * HeldCertificate}: everything one side of a TLS connection needs, and ways to write it in the
 * formats servers read.
 *
 * <p>File names are derived only from the name the caller gives, so tests and scripts know where
 * files are without being told.
 */
public final class IssuedCertificate {

  private final List<X509Certificate> chain;
  private final PrivateKey privateKey;

  IssuedCertificate(List<X509Certificate> chain, PrivateKey privateKey) {
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a certificate chain needs at least one certificate");
    }
    this.chain = List.copyOf(chain);
    this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
  }

  /** Returns the certificate itself, the first element of {@link #chain()}. */
  public X509Certificate certificate() {
    return chain.get(0);
  }

  /** Returns the certificate followed by its issuers, ending with the root CA. */
  public List<X509Certificate> chain() {
    return chain;
  }

  /** Returns the private key matching {@link #certificate()}. */
  public PrivateKey privateKey() {
    return privateKey;
  }

  /**
   * Returns an in-memory key store with one private key entry (certificate chain included) under
   * {@code alias}, for code that takes a {@code KeyStore} rather than a file.
   */
  public KeyStore toKeyStore(KeyStoreFormat format, String alias, char[] password) {
    Objects.requireNonNull(password, "password");
    try {
      KeyStore store = KeyStore.getInstance(format.type());
      store.load(null, null);
      store.setKeyEntry(alias, privateKey, password, chain.toArray(Certificate[]::new));
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a " + format + " key store", e);
    }
  }

  /**
   * Writes a key store {@code dir/name.p12} or {@code dir/name.jks} with the private key entry
   * under alias {@code name}, protected (store and key) by {@code password}.
   *
   * @return the file written
   */
  public Path writeKeyStore(Path dir, String name, KeyStoreFormat format, char[] password) {
    Path file = dir.resolve(name + format.extension());
    store(toKeyStore(format, name, password), file, password);
    return file;
  }

  /**
   * Writes {@code dir/name.crt} (the chain as PEM) and {@code dir/name.key} (the PKCS#8 private
   * key), the key encrypted with {@code keyPassword} unless it is {@code null}.
   */
  public PemFiles writePem(Path dir, String name, char[] keyPassword) {
    PemFiles files = new PemFiles(dir.resolve(name + ".crt"), dir.resolve(name + ".key"));
    write(files.certificateChain(), Pem.certificates(chain));
    write(files.privateKey(), Pem.privateKey(privateKey, keyPassword));
    return files;
  }

  /** Names the subject only; never the key. */
  @Override
  public String toString() {
    return "IssuedCertificate[" + certificate().getSubjectX500Principal().getName() + "]";
  }

  static void store(KeyStore store, Path file, char[] password) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (OutputStream out = Files.newOutputStream(file)) {
        store.store(out, password);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot write " + file, e);
    }
  }

  static void write(Path file, String text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
