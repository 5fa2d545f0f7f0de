package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.harness.BenchSecurity;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CA roll on real PKCS12 files: each step replaces the live stores in place (staging files moved over them, none
 * left behind), the certificates of the first step still come from the old CA, the second trusts both CAs, the third
 * issues from the new one that the trust store already holds.
 */
class CertificateRotationTest {
  @TempDir
  Path dir;

  private static KeyStore load(Path file, char[] password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password);
    }
    return store;
  }

  /** The certificate of the store's one key entry. */
  private static X509Certificate leaf(Path file, char[] password) throws Exception {
    KeyStore store = load(file, password);
    for (String alias : Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias)) {
        return (X509Certificate) store.getCertificate(alias);
      }
    }
    throw new AssertionError("no key entry in " + file);
  }

  private static List<X509Certificate> trusted(Path file, char[] password) throws Exception {
    KeyStore store = load(file, password);
    return Collections.list(store.aliases()).stream().filter(a -> {
      try {
        return store.isCertificateEntry(a);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }).map(a -> {
      try {
        return (X509Certificate) store.getCertificate(a);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }).toList();
  }

  @Test
  void aCaRollReplacesTheLiveStoresStepByStep() throws Exception {
    try (BenchSecurity security = new BenchSecurity(dir.resolve("live"))) {
      char[] password = security.storePassword().chars();
      X509Certificate oldCa = security.ca().certificate();
      X509Certificate firstServer = leaf(security.serverKeyStore(), password);
      assertEquals(oldCa.getSubjectX500Principal(), firstServer.getIssuerX500Principal());
      Path staging = dir.resolve("staging");
      CertificateRotation rotation = new CertificateRotation(CertificateRotation.Stores.of(security), staging);

      rotation.apply(CertificateRotation.Step.REISSUE_FROM_SAME_CA);
      X509Certificate reissuedServer = leaf(security.serverKeyStore(), password);
      X509Certificate reissuedClient = leaf(security.clientKeyStore(), password);
      assertNotEquals(firstServer.getSerialNumber(), reissuedServer.getSerialNumber(), "a new certificate");
      reissuedServer.verify(oldCa.getPublicKey());
      reissuedClient.verify(oldCa.getPublicKey());
      assertTrue(reissuedClient.getSubjectX500Principal().getName().contains("CN=ingest"),
          reissuedClient.getSubjectX500Principal().getName());
      assertEquals(List.of(oldCa), trusted(security.trustStore(), password), "the trust store is untouched");

      rotation.apply(CertificateRotation.Step.TRUST_BOTH_CAS);
      List<X509Certificate> both = trusted(security.trustStore(), password);
      assertEquals(2, both.size());
      assertTrue(both.contains(oldCa));
      X509Certificate nextCa = both.stream().filter(c -> !c.equals(oldCa)).findFirst().orElseThrow();
      assertEquals(reissuedServer, leaf(security.serverKeyStore(), password), "the certificates are untouched");

      rotation.apply(CertificateRotation.Step.REISSUE_FROM_NEXT_CA);
      X509Certificate nextServer = leaf(security.serverKeyStore(), password);
      nextServer.verify(nextCa.getPublicKey());
      leaf(security.clientKeyStore(), password).verify(nextCa.getPublicKey());
      assertEquals(nextCa.getSubjectX500Principal(), nextServer.getIssuerX500Principal());
      assertTrue(nextServer.getSubjectX500Principal().getName().contains("CN=" + BenchSecurity.HOST));
      assertEquals(2, trusted(security.trustStore(), password).size(), "both CAs stay trusted");

      try (Stream<Path> left = Files.list(staging)) {
        assertEquals(List.of(), left.toList(), "every staged file was moved over a live one");
      }
    }
  }
}
