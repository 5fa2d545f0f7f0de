package io.securethrift.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.PrincipalMapping;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.PemFiles;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Key and trust material in every format, detected from content, and the errors that name file and cause. */
@ExtendWith(CertificateAuthorityExtension.class)
class StoreLoaderTest {
  private static final char[] PW = TlsTestConfigs.PASSWORD;

  private static StoreLocation keyStoreOf(Path path, StoreType type, char[] password, String alias) {
    SecurityConfig.Builder b =
        SecurityConfig.builder().keyStore(path, type, password == null ? null : Secret.of(password));
    return b.keyStoreAlias(alias).build().tls().keyStore().orElseThrow();
  }

  private static String keyStoreError(Path path, char[] password, String alias) {
    Exception e = assertThrows(Exception.class, () -> StoreLoader.keyManager(keyStoreOf(path, null, password, alias)));
    assertFalse(e.getMessage().contains(new String(PW)), "no password in messages");
    return e.getMessage();
  }

  @Test
  void readsEveryFormatWhateverTheFileIsCalled(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    IssuedCertificate leaf = ca.leaf().issue();
    Path p12 = leaf.writeKeyStore(dir, "p12", KeyStoreFormat.PKCS12, PW);
    Path jks = leaf.writeKeyStore(dir, "jks", KeyStoreFormat.JKS, PW);
    Path jksNamedP12 = Files.copy(jks, dir.resolve("misnamed.p12"));
    PemFiles encrypted = leaf.writePem(dir, "encrypted", PW);
    PemFiles plain = leaf.writePem(dir, "plain", null);
    for (Path store : new Path[] {p12, jks, jksNamedP12, encrypted.certificateChain(), plain.certificateChain()}) {
      SingleKeyManager loaded = StoreLoader.keyManager(keyStoreOf(store, null, PW, null));
      assertEquals(leaf.certificate(), loaded.getCertificateChain(loaded.alias())[0], store.toString());
    }
    Path pemTrust = ca.writeCaPem(dir);
    StoreLocation trust = SecurityConfig.builder().trustStore(pemTrust, null, null).build().tls().trustStore()
        .orElseThrow();
    assertTrue(StoreLoader.trustStore(trust).isCertificateEntry("ca-0"));
  }

  @Test
  void errorsNameTheFileAndTheCause(TestCertificateAuthority ca, @CertificateDirectory Path dir) throws Exception {
    IssuedCertificate leaf = ca.leaf().issue();
    Path p12 = leaf.writeKeyStore(dir, "errors", KeyStoreFormat.PKCS12, PW);
    assertEquals("cannot open pkcs12 store " + p12 + ": wrong password",
        keyStoreError(p12, "nope".toCharArray(), null));
    Path jks = leaf.writeKeyStore(dir, "errors", KeyStoreFormat.JKS, PW);
    assertEquals("cannot open jks store " + jks + ": wrong password", keyStoreError(jks, "nope".toCharArray(), null));
    PemFiles pem = leaf.writePem(dir, "errors", PW);
    assertEquals("cannot decrypt the private key in " + pem.privateKey() + ": wrong password",
        keyStoreError(pem.certificateChain(), "nope".toCharArray(), null));

    Path trustOnly = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PW);
    assertTrue(keyStoreError(trustOnly, PW, null).equals(trustOnly + " holds no private key; a key store needs this"
        + " side's certificate with its private key"));

    KeyStore two = leaf.toKeyStore(KeyStoreFormat.PKCS12, "one", PW);
    IssuedCertificate other = ca.leaf().commonName("other").issue();
    two.setKeyEntry("two", other.privateKey(), PW, other.chain().toArray(new java.security.cert.Certificate[0]));
    Path several = dir.resolve("several.p12");
    try (var out = Files.newOutputStream(several)) {
      two.store(out, PW);
    }
    assertEquals(several + " holds several private keys [one, two] and no alias is configured; set"
        + " securethrift.tls.keystore.alias", keyStoreError(several, PW, null).replace("[two, one]", "[one, two]"));
    assertEquals("CN=other", StoreLoader.keyManager(keyStoreOf(several, null, PW, "two")).getCertificateChain("two")[0]
        .getSubjectX500Principal().getName());

    KeyStore mismatched = KeyStore.getInstance("PKCS12");
    mismatched.load(null, null);
    mismatched.setKeyEntry("bad", other.privateKey(), PW, leaf.chain().toArray(new java.security.cert.Certificate[0]));
    Path bad = dir.resolve("mismatched.p12");
    try (var out = Files.newOutputStream(bad)) {
      mismatched.store(out, PW);
    }
    assertTrue(keyStoreError(bad, PW, null).startsWith("the certificate and the private key in " + bad
        + " (entry 'bad') do not match"));

    Path missing = dir.resolve("gone.p12");
    Files.copy(p12, missing);
    StoreLocation location = keyStoreOf(missing, null, PW, null);
    Files.delete(missing);
    assertEquals(missing + " does not exist",
        assertThrows(Exception.class, () -> StoreLoader.keyManager(location)).getMessage());
  }

  @Test
  void layerCreationNamesTheKey(@CertificateDirectory Path dir, TestCertificateAuthority ca) {
    TlsLayerProvider provider = new TlsLayerProvider();
    SecurityConfig noKeyStore = TlsTestConfigs.tls(TlsEngine.JSSE, null, TlsTestConfigs.trustStore(ca, dir)).build();
    assertEquals("securethrift.tls.keystore.path", assertThrows(ConfigException.class,
        () -> provider.streamLayer(noKeyStore, Role.SERVER, TestIdentities.issuer())).key());
    // Outside the suite rule but allowed, so the configuration builds, but BoringSSL has no DHE suites.
    SecurityConfig badSuite = TlsTestConfigs.tls(TlsEngine.CONSCRYPT, null, TlsTestConfigs.trustStore(ca, dir))
        .tlsCipherSuites(java.util.List.of("TLS_DHE_RSA_WITH_AES_128_GCM_SHA256")).allowWeakCipherSuites(true).build();
    ConfigException e = assertThrows(ConfigException.class,
        () -> provider.streamLayer(badSuite, Role.CLIENT, TestIdentities.issuer()));
    assertEquals("securethrift.tls.cipher.suites", e.key());
    assertTrue(e.getMessage().contains("[TLS_DHE_RSA_WITH_AES_128_GCM_SHA256] not supported by this TLS engine"),
        e.getMessage());
  }

  @Test
  void principalMappings(TestCertificateAuthority ca) {
    var cert = ca.leaf().commonName("alice").addSubjectAlternativeName("alice.example").issue().certificate();
    assertEquals("alice", PrincipalMapper.map(PrincipalMapping.CN, cert).orElseThrow());
    assertEquals("CN=alice", PrincipalMapper.map(PrincipalMapping.SUBJECT, cert).orElseThrow());
    assertEquals("alice.example", PrincipalMapper.map(PrincipalMapping.SAN_DNS, cert).orElseThrow());
    assertTrue(PrincipalMapper.map(PrincipalMapping.SAN_EMAIL, cert).isEmpty());
  }
}
