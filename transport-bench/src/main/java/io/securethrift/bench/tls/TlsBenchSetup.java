package io.securethrift.bench.tls;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.CertificateFiles;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Certificates from the harness's throw-away CA ({@link BenchSecurity}: RSA 2048, as most deployments) and the
 * configurations the TLS benchmarks compare: {@code none}, {@code jsse} and {@code conscrypt}, with hostname
 * verification and without client certificates, so the numbers are for the default TLS set-up.
 */
public final class TlsBenchSetup {
  private final CertificateFiles files;

  private TlsBenchSetup(CertificateFiles files) {
    this.files = files;
  }

  /** Writes a fresh CA's certificate files into a new temporary directory, deleted when the JVM exits. */
  public static TlsBenchSetup create() {
    try {
      Path dir = Files.createTempDirectory("tls-bench-");
      dir.toFile().deleteOnExit();
      CertificateFiles files = BenchSecurity.certificates(dir);
      try (Stream<Path> written = Files.list(dir)) {
        written.map(Path::toFile).forEach(File::deleteOnExit);
      }
      return new TlsBenchSetup(files);
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
      files.pemTrustingTls(b.mode(SecurityMode.TLS).tlsEngine(TlsEngine.parse("security", security))
          .clientAuth(ClientAuth.NONE), server);
    }
    return b.maxFrameSize(1L << 20).build();
  }
}
