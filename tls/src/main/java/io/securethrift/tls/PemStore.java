package io.securethrift.tls;

import io.securethrift.core.StoreLocation;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedMessage;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.operator.InputDecryptorProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * Reads PEM material into an in-memory key store: a certificate chain and, for key stores, a PKCS#8 private key
 * (encrypted or not) in the same file or in a {@code .key} file beside it ({@code server.crt} → {@code server.key}).
 */
final class PemStore {
  static final String ALIAS = "pem";
  /**
   * BouncyCastle's provider, used only to decrypt PKCS#8 keys (the JDK lacks the PBES2 cipher names BouncyCastle asks
   * for) and never installed JVM-wide, where it would change other code's algorithm choices.
   */
  private static final java.security.Provider BOUNCY_CASTLE = new org.bouncycastle.jce.provider.BouncyCastleProvider();

  private PemStore() {}

  /** The files a PEM key store is read from, so a reload notices a change to either. */
  static List<Path> files(Path certificates) {
    List<Path> files = new ArrayList<>(List.of(certificates));
    sibling(certificates).filter(Files::isRegularFile).ifPresent(files::add);
    return files;
  }

  static KeyStore trustStore(Path file, byte[] content) throws IOException, GeneralSecurityException {
    KeyStore store = empty();
    int i = 0;
    for (Object item : parse(file, content)) {
      if (item instanceof X509CertificateHolder) {
        store.setCertificateEntry("ca-" + i++, certificate((X509CertificateHolder) item));
      }
    }
    if (i == 0) {
      throw new GeneralSecurityException(file + " holds no CERTIFICATE block");
    }
    return store;
  }

  static KeyStore keyStore(StoreLocation location, byte[] content, char[] password)
      throws IOException, GeneralSecurityException {
    Path file = location.path();
    List<X509Certificate> chain = new ArrayList<>();
    PrivateKey key = null;
    Path keyFile = file;
    List<Object> items = new ArrayList<>(parse(file, content));
    Optional<Path> sibling = sibling(file).filter(Files::isRegularFile);
    if (items.stream().noneMatch(PemStore::isKey) && sibling.isPresent()) {
      keyFile = sibling.get();
      items.addAll(parse(keyFile, Files.readAllBytes(keyFile)));
    }
    for (Object item : items) {
      if (item instanceof X509CertificateHolder) {
        chain.add(certificate((X509CertificateHolder) item));
      } else if (isKey(item)) {
        if (key != null) {
          throw new GeneralSecurityException(keyFile + " holds more than one private key");
        }
        key = privateKey(keyFile, item, password);
      }
    }
    if (chain.isEmpty()) {
      throw new GeneralSecurityException(file + " holds no CERTIFICATE block");
    }
    if (key == null) {
      throw new GeneralSecurityException(file + " holds no private key (expected a PRIVATE KEY block in it or in "
          + sibling(file).map(Path::toString).orElse("a .key file beside it") + ")");
    }
    KeyStore store = empty();
    store.setKeyEntry(ALIAS, key, password, chain.toArray(Certificate[]::new));
    return store;
  }

  private static boolean isKey(Object item) {
    return item instanceof PrivateKeyInfo || item instanceof PKCS8EncryptedPrivateKeyInfo
        || item instanceof PEMKeyPair;
  }

  private static PrivateKey privateKey(Path file, Object item, char[] password)
      throws IOException, GeneralSecurityException {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    if (item instanceof PEMKeyPair) {
      return converter.getPrivateKey(((PEMKeyPair) item).getPrivateKeyInfo());
    }
    if (item instanceof PrivateKeyInfo) {
      return converter.getPrivateKey((PrivateKeyInfo) item);
    }
    if (password.length == 0) {
      throw new GeneralSecurityException(file + " holds an encrypted private key but no password is configured"
          + " (securethrift.tls.keystore.password)");
    }
    try {
      InputDecryptorProvider decryptor = new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(BOUNCY_CASTLE)
          .build(password);
      return converter.getPrivateKey(((PKCS8EncryptedPrivateKeyInfo) item).decryptPrivateKeyInfo(decryptor));
    } catch (PKCSException | OperatorCreationException e) {
      throw new GeneralSecurityException("cannot decrypt the private key in " + file + ": wrong password", e);
    }
  }

  private static List<Object> parse(Path file, byte[] content) throws IOException {
    List<Object> items = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(new String(content, StandardCharsets.US_ASCII)))) {
      for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
        items.add(item);
      }
    } catch (IOException | RuntimeException e) {
      // BouncyCastle reports bad base64 and malformed structures with unchecked exceptions too, and its messages quote
      // the file's lines.
      throw new InvalidPem(file + " is not valid PEM: " + PeerText.sanitize(e.getMessage()), e);
    }
    return items;
  }

  private static X509Certificate certificate(X509CertificateHolder holder) throws GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(holder);
  }

  private static Optional<Path> sibling(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    if (dot <= 0 || name.substring(dot).equalsIgnoreCase(".key")) {
      return Optional.empty();
    }
    return Optional.of(file.resolveSibling(name.substring(0, dot) + ".key"));
  }

  private static KeyStore empty() throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    return store;
  }

  /** A PEM file BouncyCastle cannot parse; its message quotes the file's text escaped once, with {@link PeerText}. */
  private static final class InvalidPem extends IOException implements EscapedMessage {
    private static final long serialVersionUID = 1L;

    InvalidPem(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
