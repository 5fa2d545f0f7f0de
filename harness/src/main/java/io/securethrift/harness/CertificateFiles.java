package io.securethrift.harness;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.StoreType;
import io.securethrift.testkit.ca.PemFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

/**
 * The certificate files {@link BenchSecurity} writes into its directory, named as there, and the password of its
 * stores: what a benchmark's own JVM configures TLS from, and what a child JVM reads back from the directory alone
 * ({@link #writeSecrets}, {@link #readSecrets}, {@link #of}), so that a server in another JVM presents the same
 * certificate without a CA of its own.
 */
public final class CertificateFiles {
  /** The file of {@link #writeSecrets} in the directory. */
  public static final String SECRETS = "secrets.properties";
  private static final String PASSWORD = "store.password";

  private final Path dir;
  private final Secret password;

  CertificateFiles(Path dir, Secret password) {
    this.dir = dir;
    this.password = password;
  }

  /** The files {@link #writeSecrets} wrote into {@code dir}, the store password from its {@code secrets}. */
  public static CertificateFiles of(Path dir, Properties secrets) {
    String password = secrets.getProperty(PASSWORD);
    if (password == null) {
      throw new IllegalArgumentException("the benchmark's secrets in " + dir + " have no " + PASSWORD);
    }
    return new CertificateFiles(dir, Secret.of(password));
  }

  /** The directory that holds the files. */
  public Path dir() {
    return dir;
  }

  /** The server's certificate and key, PKCS#12. */
  public Path serverKeyStore() {
    return dir.resolve("server.p12");
  }

  /** The client's certificate and key, PKCS#12. */
  public Path clientKeyStore() {
    return dir.resolve("client.p12");
  }

  /** The CA's certificate, PKCS#12. */
  public Path trustStore() {
    return dir.resolve("truststore.p12");
  }

  /**
   * The CA's certificate as PEM, for clients that build a context per connection: it loads in microseconds, where a
   * PKCS#12 store's password-based MAC takes milliseconds.
   */
  public Path caPem() {
    return dir.resolve("ca.crt");
  }

  /** The server's certificate chain and its unencrypted key as PEM, for servers such as {@code openssl s_server}. */
  public PemFiles serverPem() {
    return new PemFiles(dir.resolve("server.crt"), dir.resolve("server.key"));
  }

  /** The client's certificate chain and its unencrypted key as PEM, for clients such as {@code openssl s_time}. */
  public PemFiles clientPem() {
    return new PemFiles(dir.resolve("client.crt"), dir.resolve("client.key"));
  }

  /** The password of every store above. */
  public Secret password() {
    return password;
  }

  /** A TLS configuration: server certificate, and client certificates required if {@code mutual}. */
  public SecurityConfig.Builder tls(SecurityConfig.Builder b, boolean server, boolean mutual) {
    b.trustStore(trustStore(), StoreType.PKCS12, password);
    if (server) {
      b.keyStore(serverKeyStore(), StoreType.PKCS12, password)
          .clientAuth(mutual ? ClientAuth.NEED : ClientAuth.NONE);
    } else if (mutual) {
      b.keyStore(clientKeyStore(), StoreType.PKCS12, password);
    }
    return b;
  }

  /**
   * One-way TLS whose clients trust the CA from PEM ({@link #caPem}), so that a client context built per connection
   * costs little beside the handshake: the server as {@link #tls tls(b, true, false)}, a client with the PEM trust
   * store alone.
   */
  public SecurityConfig.Builder pemTrustingTls(SecurityConfig.Builder b, boolean server) {
    return server ? tls(b, true, false) : b.trustStore(caPem(), StoreType.PEM, null);
  }

  /**
   * Writes {@value #SECRETS} into the directory, readable by this user only: the store password and {@code more}
   * (a benchmark's own throw-away secrets), for child JVMs to read with {@link #readSecrets}.
   *
   * @throws java.nio.file.FileAlreadyExistsException if the directory has a secrets file already
   */
  public Path writeSecrets(Properties more) throws IOException {
    Properties secrets = new Properties();
    secrets.putAll(more);
    secrets.setProperty(PASSWORD, new String(password.chars()));
    Path file = dir.resolve(SECRETS);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      secrets.store(w, "throw-away secrets of one benchmark run");
    }
    return file;
  }

  /** Reads what {@link #writeSecrets} wrote into {@code dir}: the store password and the benchmark's own secrets. */
  public static Properties readSecrets(Path dir) {
    Properties secrets = new Properties();
    try (Reader r = Files.newBufferedReader(dir.resolve(SECRETS), StandardCharsets.UTF_8)) {
      secrets.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the benchmark's secrets in " + dir, e);
    }
    return secrets;
  }
}
