package io.securethrift.tls;

import io.securethrift.core.Secret;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.StoreType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Loads key and trust stores in JKS, PKCS#12 or PEM, detecting the format from the content. Every failure names the
 * file and the cause (missing, wrong password, no key, ambiguous key, certificate and key that do not match) and never
 * the password.
 */
final class StoreLoader {
  private StoreLoader() {}

  /** The files behind a store, for change detection: the store itself, and for PEM the key file beside it. */
  static List<Path> files(StoreLocation location) {
    // Without BouncyCastle a PEM store fails to load with PemSupport's message; PemStore itself must not be touched.
    return location.type() == StoreType.PEM && PemSupport.available() ? PemStore.files(location.path())
        : List.of(location.path());
  }

  /** The trusted certificates of a trust store. */
  static KeyStore trustStore(StoreLocation location) throws IOException, GeneralSecurityException {
    return trustStore(location, false);
  }

  /** The trusted certificates of a trust store; with {@code fips}, refused if one holds a key outside FIPS approval. */
  static KeyStore trustStore(StoreLocation location, boolean fips) throws IOException, GeneralSecurityException {
    byte[] content = read(location.path());
    char[] password = password(location);
    try {
      StoreType type = format(location, content);
      KeyStore store = type == StoreType.PEM ? PemStore.trustStore(location.path(), content)
          : load(location, type, content, password);
      if (Collections.list(store.aliases()).stream().noneMatch(a -> isCertificate(store, a))) {
        throw new GeneralSecurityException(location.path() + " holds no trusted certificate"
            + (password.length == 0 ? " readable without a password" : ""));
      }
      if (fips) {
        List<X509Certificate> certificates = new ArrayList<>();
        for (String alias : Collections.list(store.aliases())) {
          if (store.getCertificate(alias) instanceof X509Certificate) {
            certificates.add((X509Certificate) store.getCertificate(alias));
          }
        }
        FipsKeys.checkStore(location.path(), certificates);
      }
      return store;
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /**
   * The key to present, with its chain, chosen by the configured alias or as the only key in the store, decoded once
   * and held in memory by the key manager every context of this store shares until the files change.
   */
  static SingleKeyManager keyManager(StoreLocation location) throws IOException, GeneralSecurityException {
    return keyManager(location, false);
  }

  /** As {@link #keyManager(StoreLocation)}; with {@code fips}, refused if the chain holds a key outside approval. */
  static SingleKeyManager keyManager(StoreLocation location, boolean fips)
      throws IOException, GeneralSecurityException {
    byte[] content = read(location.path());
    char[] password = password(location);
    try {
      StoreType type = format(location, content);
      KeyStore store = type == StoreType.PEM ? PemStore.keyStore(location, content, password)
          : load(location, type, content, password);
      String alias = chooseKey(location, store);
      checkEcSupport(location.path(), alias, store);
      PrivateKey key = key(location.path(), store, alias, password);
      Certificate[] chain = store.getCertificateChain(alias);
      X509Certificate[] x509 = new X509Certificate[chain.length];
      for (int i = 0; i < chain.length; i++) {
        x509[i] = (X509Certificate) chain[i];
      }
      checkMatch(location.path(), alias, key, x509[0]);
      if (fips) {
        FipsKeys.checkStore(location.path(), Arrays.asList(x509));
      }
      return new SingleKeyManager(alias, key, x509);
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /** The store's format, from its content; a PEM store needs BouncyCastle, whose absence is named here. */
  private static StoreType format(StoreLocation location, byte[] content)
      throws IOException, GeneralSecurityException {
    StoreType type = StoreFormat.detect(location.path(), content, location.type());
    if (type == StoreType.PEM) {
      PemSupport.require(location.path());
    }
    return type;
  }

  /** The store password as a fresh array the caller clears; empty when none was configured. */
  static char[] password(StoreLocation location) {
    return location.password().map(Secret::chars).orElseGet(() -> new char[0]);
  }

  private static byte[] read(Path file) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file + " does not exist");
    } catch (IOException e) {
      throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static KeyStore load(StoreLocation location, StoreType type, byte[] content, char[] password)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type == StoreType.JKS ? "JKS" : "PKCS12");
    try {
      store.load(new ByteArrayInputStream(content), password.length == 0 ? null : password);
      return store;
    } catch (IOException e) {
      if (causedBy(e, UnrecoverableKeyException.class) || String.valueOf(e.getMessage()).contains("password")) {
        throw new UnrecoverableKeyException("cannot open " + type + " store " + location.path() + ": wrong password");
      }
      throw new IOException("cannot read " + location.path() + " as " + type + ": " + e.getMessage(), e);
    }
  }

  private static String chooseKey(StoreLocation location, KeyStore store) throws GeneralSecurityException {
    List<String> keys = new ArrayList<>();
    for (String alias : Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias)) {
        keys.add(alias);
      }
    }
    if (location.alias().isPresent()) {
      String alias = location.alias().get();
      if (!keys.contains(alias)) {
        throw new GeneralSecurityException(location.path() + " has no private key entry '" + alias
            + "' (securethrift.tls.keystore.alias); its keys: " + keys);
      }
      return alias;
    }
    if (keys.isEmpty()) {
      throw new GeneralSecurityException(location.path() + " holds no private key; a key store needs this side's"
          + " certificate with its private key");
    }
    if (keys.size() > 1) {
      throw new GeneralSecurityException(location.path() + " holds several private keys " + keys
          + " and no alias is configured; set securethrift.tls.keystore.alias");
    }
    return keys.get(0);
  }

  private static PrivateKey key(Path file, KeyStore store, String alias, char[] password)
      throws GeneralSecurityException {
    try {
      Key key = store.getKey(alias, password);
      if (!(key instanceof PrivateKey)) {
        throw new GeneralSecurityException(file + " entry '" + alias + "' is not a private key");
      }
      return (PrivateKey) key;
    } catch (UnrecoverableKeyException e) {
      throw new UnrecoverableKeyException("cannot read the private key '" + alias + "' in " + file
          + ": wrong password");
    }
  }

  /**
   * Fails naming the missing EC provider when the key is EC and this JVM cannot read EC keys, which the key stores
   * would otherwise report as a wrong password. The certificate says what the key is: reading it needs no EC provider.
   */
  private static void checkEcSupport(Path file, String alias, KeyStore store) throws GeneralSecurityException {
    Certificate certificate = store.getCertificate(alias);
    if (certificate != null && "EC".equals(certificate.getPublicKey().getAlgorithm()) && !EcSupport.available()) {
      throw new GeneralSecurityException("cannot use the private key '" + alias + "' in " + file + ", an EC key: "
          + EcSupport.missing());
    }
  }

  private static String signatureAlgorithm(String keyAlgorithm) {
    switch (keyAlgorithm) {
      case "RSA":
        return "SHA256withRSA";
      case "EC":
        return "SHA256withECDSA";
      default:
        return keyAlgorithm; // RSASSA-PSS and others name their own signature algorithm
    }
  }

  /**
   * Fails when the certificate was issued for another key. An RSA key matches when its modulus (and, when it carries
   * one, public exponent) is the certificate's, which costs nothing; other keys sign and verify a probe, which works
   * for every type and costs little for them (an RSA probe is a full private-key operation, as dear as a handshake's
   * signature, on every context built).
   */
  private static void checkMatch(Path file, String alias, PrivateKey key, X509Certificate certificate)
      throws GeneralSecurityException {
    PublicKey certified = certificate.getPublicKey();
    if (!key.getAlgorithm().equals(certified.getAlgorithm())) {
      throw mismatch(file, alias, certificate);
    }
    boolean matches;
    if (key instanceof RSAKey && certified instanceof RSAPublicKey) {
      RSAPublicKey rsa = (RSAPublicKey) certified;
      matches = ((RSAKey) key).getModulus().equals(rsa.getModulus()) && (!(key instanceof RSAPrivateCrtKey)
          || ((RSAPrivateCrtKey) key).getPublicExponent().equals(rsa.getPublicExponent()));
    } else {
      matches = signsForCertificate(key, certified);
    }
    if (!matches) {
      throw mismatch(file, alias, certificate);
    }
  }

  private static boolean signsForCertificate(PrivateKey key, PublicKey certified) throws GeneralSecurityException {
    String algorithm = signatureAlgorithm(key.getAlgorithm());
    byte[] probe = "securethrift key check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(probe);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(certified);
    verifier.update(probe);
    return verifier.verify(signature);
  }

  private static GeneralSecurityException mismatch(Path file, String alias, X509Certificate certificate) {
    return new GeneralSecurityException("the certificate and the private key in " + file + " (entry '" + alias
        + "') do not match: the certificate " + certificate.getSubjectX500Principal().getName()
        + " was issued for another key");
  }

  private static boolean isCertificate(KeyStore store, String alias) {
    try {
      return store.isCertificateEntry(alias) || store.isKeyEntry(alias);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
