package io.securethrift.accumulo;

import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Real key and trust stores from a test CA, and a compact way to write ordered key/value pairs. */
final class Stores {
  static final char[] KEY_PASSWORD = "key-secret".toCharArray();
  static final char[] TRUST_PASSWORD = "trust-secret".toCharArray();
  private static final TestCertificateAuthority CA = TestCertificateAuthority.create();

  private Stores() {}

  static Path keyStore(Path dir, String name, char[] password) {
    return CA.leaf().commonName("localhost").addSubjectAlternativeName("localhost").issue()
        .writeKeyStore(dir, name, KeyStoreFormat.JKS, password);
  }

  static Path trustStore(Path dir) {
    return CA.writeTrustStore(dir, KeyStoreFormat.JKS, TRUST_PASSWORD);
  }

  /** An ordered map from alternating keys and values. */
  static Map<String, String> props(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
