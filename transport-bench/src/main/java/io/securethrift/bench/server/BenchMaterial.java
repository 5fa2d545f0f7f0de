package io.securethrift.bench.server;

import io.securethrift.core.DelegationToken;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.CertificateFiles;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.PemFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Properties;

/**
 * The security material of one server-bench run, in a private directory that the benchmark and its server JVMs share:
 * the harness's certificate files ({@link BenchSecurity#certificates}: an RSA-2048 server certificate from a
 * throw-away CA as a PKCS#12 store for the Java servers and as PEM files for {@code openssl s_server}, so every TLS
 * server presents the same certificate, and the CA as PEM for clients), and a DIGEST-MD5 delegation token. Both sides
 * build their {@link SecurityConfig}s here, so a server JVM needs only the directory and the mode.
 */
final class BenchMaterial {
  /** The name clients dial: the certificate's subject alternative name and the SASL server name. */
  static final String HOST = BenchSecurity.HOST;
  private static final String TOKEN_ID = "token.id";
  private static final String TOKEN_PASSWORD = "token.password";

  private final CertificateFiles files;
  private final DelegationToken token;

  private BenchMaterial(CertificateFiles files, DelegationToken token) {
    this.files = files;
    this.token = token;
  }

  /** Writes fresh material into {@code dir}; the secrets file is readable by this user only. */
  static BenchMaterial create(Path dir) throws IOException {
    return create(dir, KeyType.RSA);
  }

  /** As {@link #create(Path)}, the CA and its certificates holding {@code keyType} keys. */
  static BenchMaterial create(Path dir, KeyType keyType) throws IOException {
    SecureRandom random = new SecureRandom();
    byte[] tokenId = new byte[16];
    byte[] tokenPassword = new byte[20];
    random.nextBytes(tokenId);
    random.nextBytes(tokenPassword);
    HexFormat hex = HexFormat.of();
    CertificateFiles files = BenchSecurity.certificates(dir, keyType);
    Properties token = new Properties();
    token.setProperty(TOKEN_ID, hex.formatHex(tokenId));
    token.setProperty(TOKEN_PASSWORD, hex.formatHex(tokenPassword));
    files.writeSecrets(token);
    return new BenchMaterial(files, new DelegationToken(tokenId, tokenPassword));
  }

  /** Reads the material {@link #create} wrote, in a server JVM. */
  static BenchMaterial load(Path dir) {
    Properties secrets = CertificateFiles.readSecrets(dir);
    HexFormat hex = HexFormat.of();
    return new BenchMaterial(CertificateFiles.of(dir, secrets), new DelegationToken(
        hex.parseHex(secrets.getProperty(TOKEN_ID)), hex.parseHex(secrets.getProperty(TOKEN_PASSWORD))));
  }

  Path dir() {
    return files.dir();
  }

  /** The server certificate and its unencrypted key as PEM, for {@code openssl s_server}. */
  PemFiles serverPem() {
    return files.serverPem();
  }

  /** The client certificate and its unencrypted key as PEM, for {@code openssl s_time}. */
  PemFiles clientPem() {
    return files.clientPem();
  }

  /** The CA's certificate as PEM. */
  Path caPem() {
    return files.caPem();
  }

  /**
   * The server side of {@code mode}, requiring client certificates in TLS if {@code mutual}. Every peer of the
   * benchmark is on 127.0.0.1, so the connection and per-address limits are raised above the largest idle count; the
   * unauthenticated limit and the handshake deadline keep their defaults, which the flood measures.
   */
  SecurityConfig server(BenchMode mode, TlsEngine engine, boolean mutual) {
    SecurityConfig.Builder b = base(mode, engine).maxConnections(1_000_000).maxConnectionsPerAddress(1_000_000)
        .maxUnauthenticatedConnectionsPerAddress(1_000_000).serverIdleTimeout(Duration.ZERO);
    if (mode.tls()) {
      files.tls(b, true, mutual);
    } else if (ServerModes.handshakes(mode)) {
      b.delegationTokenSecrets(id -> Arrays.equals(id, token.identifier()) ? Optional.of(token.password())
          : Optional.empty());
    }
    return b.build();
  }

  /**
   * The client side of {@code mode}: the CA from PEM (it loads in microseconds), the token for DIGEST-MD5, and a
   * deadline so that a server that never answers fails a connection instead of hanging the benchmark.
   */
  SecurityConfig client(BenchMode mode, TlsEngine engine) {
    SecurityConfig.Builder b = base(mode, engine).handshakeTimeout(Duration.ofSeconds(20))
        .readTimeout(Duration.ofSeconds(60));
    if (mode.tls()) {
      files.pemTrustingTls(b, false);
    } else if (ServerModes.handshakes(mode)) {
      b.delegationToken(token);
    }
    return b.build();
  }

  private static SecurityConfig.Builder base(BenchMode mode, TlsEngine engine) {
    SecurityConfig.Builder b = SecurityConfig.builder().maxFrameSize(4L << 20);
    if (mode.tls()) {
      return b.mode(SecurityMode.TLS).tlsEngine(engine);
    }
    return mode.sasl() ? sasl(b, mode.qop()) : b.mode(SecurityMode.NONE);
  }

  private static SecurityConfig.Builder sasl(SecurityConfig.Builder b, QualityOfProtection qop) {
    return b.mode(SecurityMode.SASL).saslMechanism(SaslMechanism.DIGEST_MD5).qop(qop).serverHost(HOST);
  }
}
