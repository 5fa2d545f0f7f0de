package io.securethrift.tls;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Key stores written from a test CA and the TLS configurations the tests build on them. */
final class TlsTestConfigs {
  static final char[] PASSWORD = "changeit".toCharArray();

  private TlsTestConfigs() {}

  static Path keyStore(IssuedCertificate certificate, Path dir, String name) {
    return certificate.writeKeyStore(dir, name, KeyStoreFormat.PKCS12, PASSWORD);
  }

  static Path trustStore(TestCertificateAuthority ca, Path dir) {
    return ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  /** A TLS configuration with short timeouts, trusting {@code trustStore}; key store optional. */
  static SecurityConfig.Builder tls(TlsEngine engine, Path keyStore, Path trustStore) {
    SecurityConfig.Builder b = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD))
        .handshakeTimeout(Duration.ofSeconds(5)).readTimeout(Duration.ofSeconds(20))
        .connectTimeout(Duration.ofSeconds(5));
    if (keyStore != null) {
      b.keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD));
    }
    return b;
  }

  static SecurityConfig server(TlsEngine engine, Path keyStore, Path trustStore, ClientAuth auth, String protocol) {
    return tls(engine, keyStore, trustStore).clientAuth(auth).tlsProtocols(List.of(protocol)).build();
  }
}
