package io.securethrift.accumulo.ingest;

import io.securethrift.kdc.ca.KeyStoreFormat;
import io.securethrift.kdc.ca.LeafCertificateBuilder;
import io.securethrift.kdc.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Certificates for a TLS MiniAccumuloCluster. Accumulo 2.1's clients and servers verify host names against the name
 * each tablet server registers, which is this machine's host name rather than {@code localhost}, so the server
 * certificate names every way this host is known; the harness's own server certificate names only
 * {@code localhost}. Stores are PKCS12 under the given password.
 */
record ClusterCertificates(Path serverKeyStore, Path clientKeyStore, Path trustStore) {

  static ClusterCertificates issue(Path dir, char[] password) {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    LeafCertificateBuilder server = ca.leaf().commonName("tserver");
    localNames().forEach(server::addSubjectAlternativeName);
    return new ClusterCertificates(
        server.issue().writeKeyStore(dir, "tserver", KeyStoreFormat.PKCS12, password),
        ca.leaf().commonName("ingest").issue().writeKeyStore(dir, "ingest", KeyStoreFormat.PKCS12, password),
        ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, password));
  }

  private static Set<String> localNames() {
    try {
      InetAddress local = InetAddress.getLocalHost();
      return new LinkedHashSet<>(List.of("localhost", "127.0.0.1", local.getHostName(), local.getCanonicalHostName(),
          local.getHostAddress()));
    } catch (IOException e) {
      throw new UncheckedIOException("this host's name is unknown, so no server certificate can name it", e);
    }
  }
}
