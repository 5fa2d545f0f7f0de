package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.EachTlsEngine;
import io.securethrift.core.testing.FipsPeers;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code securethrift.fips=true} on {@link NettyThriftServer}, both engines: approved clients served, a ChaCha20-only
 * client and a TLS 1.1 ClientHello refused, and an RSA-1024 key store refused when the server starts.
 */
@ExtendWith(CertificateAuthorityExtension.class)
class NettyFipsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static Path serverStore;
  private static Path weakStore;
  private static Path trustStore;

  @BeforeAll
  static void certificates(TestCertificateAuthority ca, @CertificateDirectory Path dir) {
    serverStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    weakStore = ca.leaf().keyType(KeyType.RSA_1024).issue().writeKeyStore(dir, "weak", KeyStoreFormat.PKCS12,
        PASSWORD);
    trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
  }

  private static SecurityConfig.Builder tls(TlsEngine engine) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD)).handshakeTimeout(Duration.ofSeconds(5));
  }

  @EachTlsEngine
  void servesOnlyApprovedClients(TlsEngine engine) throws Exception {
    SecurityConfig server = tls(engine).keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD)).fips(true)
        .build();
    try (NettyThriftServer netty = NettyTlsTest.start(server)) {
      FipsPeers.assertServesOnlyApprovedClients(tls(engine), netty.port());
    }
  }

  @EachTlsEngine
  void anRsa1024KeyStoreIsRefusedAtStart(TlsEngine engine) {
    SecurityConfig server = tls(engine).keyStore(weakStore, StoreType.PKCS12, Secret.of(PASSWORD)).fips(true)
        .build();
    ConfigException e = assertThrows(ConfigException.class, () -> NettyTlsTest.start(server).close());
    assertEquals("securethrift.tls.keystore.path", e.key());
    assertTrue(e.getMessage().contains(weakStore + ": the certificate CN=localhost holds a 1024-bit RSA key, which"
        + " securethrift.fips=true refuses"), e.getMessage());
  }
}
