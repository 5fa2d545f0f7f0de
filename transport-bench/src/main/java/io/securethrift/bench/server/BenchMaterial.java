package io.securethrift.bench.server;

import io.securethrift.harness.BenchMode;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.DelegationToken;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.PemFiles;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Properties;

/**
 * The security material of one server-bench run, in a private directory that the benchmark and its server JVMs share:
 * one RSA-2048 server certificate from a throw-away CA (as a PKCS#12 store for the Java servers and as PEM files for
 * {@code openssl s_server}, so every TLS server presents the same certificate), the CA as PEM for clients, and a
 * DIGEST-MD5 delegation token. Both sides build their {@link SecurityConfig}s here, so a server JVM needs only the
 * directory and the mode.
 */
final class BenchMaterial {
  /** The name clients dial: the certificate's subject alternative name and the SASL server name. */
  static final String HOST = "localhost";
  private static final String SECRETS = "secrets.properties";

  private final Path dir;
  private final Secret storePassword;
  private final DelegationToken token;

  private BenchMaterial(Path dir, Secret storePassword, DelegationToken token) {
    this.dir = dir;
    this.storePassword = storePassword;
    this.token = token;
  }

  /** Writes fresh material into {@code dir}; the secrets file is readable by this user only. */
  static BenchMaterial create(Path dir) throws IOException {
    SecureRandom random = new SecureRandom();
    byte[] password = new byte[12];
    byte[] tokenId = new byte[16];
    byte[] tokenPassword = new byte[20];
    random.nextBytes(password);
    random.nextBytes(tokenId);
    random.nextBytes(tokenPassword);
    HexFormat hex = HexFormat.of();
    Secret storePassword = Secret.of(hex.formatHex(password));
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    IssuedCertificate server = ca.leaf().issue();
    server.writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, storePassword.chars());
    server.writePem(dir, "server", null);
    ca.writeCaPem(dir);
    Properties secrets = new Properties();
    secrets.setProperty("store.password", new String(storePassword.chars()));
    secrets.setProperty("token.id", hex.formatHex(tokenId));
    secrets.setProperty("token.password", hex.formatHex(tokenPassword));
    Path file = dir.resolve(SECRETS);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      secrets.store(w, "server-bench: throw-away secrets of one run");
    }
    return new BenchMaterial(dir, storePassword, new DelegationToken(tokenId, tokenPassword));
  }

  /** Reads the material {@link #create} wrote, in a server JVM. */
  static BenchMaterial load(Path dir) {
    Properties secrets = new Properties();
    try (Reader r = Files.newBufferedReader(dir.resolve(SECRETS), StandardCharsets.UTF_8)) {
      secrets.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the benchmark's secrets in " + dir, e);
    }
    HexFormat hex = HexFormat.of();
    return new BenchMaterial(dir, Secret.of(secrets.getProperty("store.password")), new DelegationToken(
        hex.parseHex(secrets.getProperty("token.id")), hex.parseHex(secrets.getProperty("token.password"))));
  }

  Path dir() {
    return dir;
  }

  /** The server certificate and its unencrypted key as PEM, for {@code openssl s_server}. */
  PemFiles serverPem() {
    return new PemFiles(dir.resolve("server.crt"), dir.resolve("server.key"));
  }

  /**
   * The server side of {@code mode}. Every peer of the benchmark is on 127.0.0.1, so the connection and per-address
   * limits are raised above the largest idle count; the unauthenticated limit and the handshake deadline keep their
   * defaults, which the flood measures.
   */
  SecurityConfig server(BenchMode mode, TlsEngine engine) {
    SecurityConfig.Builder b = base(mode, engine).maxConnections(1_000_000).maxConnectionsPerAddress(1_000_000)
        .maxUnauthenticatedConnectionsPerAddress(1_000_000).serverIdleTimeout(Duration.ZERO);
    if (mode.tls()) {
      b.keyStore(dir.resolve("server.p12"), StoreType.PKCS12, storePassword).clientAuth(ClientAuth.NONE);
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
      b.trustStore(dir.resolve("ca.crt"), StoreType.PEM, null);
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
