package io.securethrift.testkit.ca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(CertificateAuthorityExtension.class)
class CertificateFilesTest {

  private static final char[] PASSWORD = "store-secret".toCharArray();

  @ParameterizedTest
  @EnumSource(KeyStoreFormat.class)
  void keyStoreLoadsBackWithTheJdk(
      KeyStoreFormat format, TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate leaf = ca.leaf().keyType(KeyType.EC).issue();

    Path file = leaf.writeKeyStore(dir, "server-" + format, format, PASSWORD);

    assertEquals(dir.resolve("server-" + format + format.extension()), file);
    KeyStore store = load(file, format);
    String alias = "server-" + format;
    assertTrue(store.isKeyEntry(alias));
    assertEquals(leaf.privateKey(), store.getKey(alias, PASSWORD));
    assertEquals(leaf.chain(), List.of(store.getCertificateChain(alias)));
  }

  @ParameterizedTest
  @EnumSource(KeyStoreFormat.class)
  void trustStoreHoldsTheCa(
      KeyStoreFormat format, TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path file = ca.writeTrustStore(dir.resolve(format.name()), format, PASSWORD);

    assertEquals("truststore" + format.extension(), file.getFileName().toString());
    KeyStore store = load(file, format);
    assertTrue(store.isCertificateEntry("ca"));
    assertEquals(ca.certificate(), store.getCertificate("ca"));
  }

  @Test
  void unencryptedPemReadsBack(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate leaf = ca.leaf().issue();

    PemFiles files = leaf.writePem(dir, "plain", null);
    Path caFile = ca.writeCaPem(dir);

    assertEquals(dir.resolve("plain.crt"), files.certificateChain());
    assertEquals(dir.resolve("plain.key"), files.privateKey());
    assertEquals(leaf.chain(), readCertificates(files.certificateChain()));
    assertEquals(List.of(ca.certificate()), readCertificates(caFile));
    assertEquals(dir.resolve("ca.crt"), caFile);
    assertTrue(Files.readString(files.privateKey()).startsWith("-----BEGIN PRIVATE KEY-----"));
    PrivateKeyInfo info = (PrivateKeyInfo) readPem(files.privateKey());
    assertEquals(leaf.privateKey(), new JcaPEMKeyConverter().getPrivateKey(info));
  }

  @Test
  void encryptedPemKeyNeedsItsPassword(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate leaf = ca.leaf().keyType(KeyType.EC).issue();

    PemFiles files = leaf.writePem(dir, "encrypted", "pem-secret".toCharArray());

    String text = Files.readString(files.privateKey());
    assertTrue(text.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"), text);
    PKCS8EncryptedPrivateKeyInfo encrypted =
        assertInstanceOf(PKCS8EncryptedPrivateKeyInfo.class, readPem(files.privateKey()));
    assertEquals(leaf.privateKey(), decrypt(encrypted, "pem-secret".toCharArray()));
    assertThrows(PKCSException.class, () -> decrypt(encrypted, "wrong".toCharArray()));
  }

  @Test
  void toStringNamesTheSubjectOnly(TestCertificateAuthority ca) {
    IssuedCertificate leaf = ca.leaf().commonName("node1").issue();

    assertEquals("IssuedCertificate[CN=node1]", leaf.toString());
  }

  @Nested
  class NestedClass {
    @Test
    void sharesTheEnclosingCa(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
      assertTrue(Files.isDirectory(dir));
      ca.leaf().issue().certificate();
    }
  }

  private static KeyStore load(Path file, KeyStoreFormat format) throws Exception {
    KeyStore store = KeyStore.getInstance(format.type());
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return store;
  }

  private static PrivateKey decrypt(PKCS8EncryptedPrivateKeyInfo encrypted, char[] password)
      throws Exception {
    PrivateKeyInfo info =
        encrypted.decryptPrivateKeyInfo(
            new JceOpenSSLPKCS8DecryptorProviderBuilder()
                .setProvider(new BouncyCastleProvider())
                .build(password));
    return new JcaPEMKeyConverter().getPrivateKey(info);
  }

  private static Object readPem(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file);
        PEMParser parser = new PEMParser(reader)) {
      return parser.readObject();
    }
  }

  private static List<Certificate> readCertificates(Path file) throws Exception {
    List<Certificate> certificates = new ArrayList<>();
    try (Reader reader = Files.newBufferedReader(file);
        PEMParser parser = new PEMParser(reader)) {
      for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
        X509Certificate certificate =
            new JcaX509CertificateConverter().getCertificate((X509CertificateHolder) object);
        certificates.add(certificate);
      }
    }
    return certificates;
  }
}
