package io.securethrift.bench.tls;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Certificates from a throw-away CA (RSA 2048, as most deployments) and the configurations the TLS benchmarks
 * compare: {@code none}, {@code jsse} and {@code conscrypt}, with hostname verification and without client
 * certificates, so the numbers are for the default TLS set-up.
 */
public final class TlsBenchSetup {
  private static final char[] PASSWORD = "benchmark".toCharArray();

  private final Path serverStore;
  private final Path trustStore;
  private final Path caPem;

  private TlsBenchSetup(Path serverStore, Path trustStore, Path caPem) {
    this.serverStore = serverStore;
    this.trustStore = trustStore;
    this.caPem = caPem;
  }

  /** Writes a fresh CA's server key store and trust store into a new temporary directory. */
  public static TlsBenchSetup create() {
    try {
      Path dir = Files.createTempDirectory("tls-bench-");
      dir.toFile().deleteOnExit();
      TestCertificateAuthority ca = TestCertificateAuthority.create();
      Path server = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
      Path trust = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
      Path pem = ca.writeCaPem(dir);
      server.toFile().deleteOnExit();
      trust.toFile().deleteOnExit();
      pem.toFile().deleteOnExit();
      return new TlsBenchSetup(server, trust, pem);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code none}, {@code jsse} or {@code conscrypt}, for the server or the client side. Clients trust the CA from a
   * PEM file, which loads in microseconds, so that a fresh client context per full handshake costs little; a PKCS#12
   * store's password-based MAC would take milliseconds.
   */
  public SecurityConfig config(String security, boolean server) {
    return config(security, server, List.of("TLSv1.3", "TLSv1.2"));
  }

  /** As {@link #config(String, boolean)}, with only the given TLS versions enabled. */
  SecurityConfig config(String security, boolean server, List<String> protocols) {
    SecurityConfig.Builder b = SecurityConfig.builder().tlsProtocols(protocols);
    if (!security.equals("none")) {
      b.mode(SecurityMode.TLS).tlsEngine(TlsEngine.parse("security", security)).clientAuth(ClientAuth.NONE);
      if (server) {
        b.keyStore(serverStore, StoreType.PKCS12, Secret.of(PASSWORD))
            .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
      } else {
        b.trustStore(caPem, StoreType.PEM, null);
      }
    }
    return b.maxFrameSize(1L << 20).build();
  }
}
