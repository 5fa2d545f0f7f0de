package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsSettings;
import io.securethrift.testkit.ca.KeyType;
import io.securethrift.testkit.ca.PemFiles;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The certificate files of {@link BenchSecurity} as a benchmark and its child JVMs use them: real certificates from
 * the harness's CA, written where {@link CertificateFiles} names them, the secrets file a child reads the directory
 * back with, and TLS handshakes (the JDK's own, on loopback) between a server made of the files read back and clients
 * of the creating side.
 */
class CertificateFilesTest {
  @TempDir
  Path dir;

  /** The CA and both leaves of the key type asked for; both leaves as PEM too, for openssl's server and client. */
  @Test
  void ecdsaMaterialIsEcdsaThroughoutWithBothLeavesAsPem() throws Exception {
    CertificateFiles files = BenchSecurity.certificates(dir, KeyType.EC);
    X509Certificate ca = pem(files.caPem()).get(0);
    assertEquals("SHA256withECDSA", ca.getSigAlgName());
    for (PemFiles leaf : List.of(files.serverPem(), files.clientPem())) {
      X509Certificate certificate = pem(leaf.certificateChain()).get(0);
      assertEquals("EC", certificate.getPublicKey().getAlgorithm());
      certificate.verify(ca.getPublicKey());
      assertTrue(Files.readString(leaf.privateKey()).startsWith("-----BEGIN PRIVATE KEY-----"), leaf.toString());
    }
    assertEquals("CN=ingest", pem(files.clientPem().certificateChain()).get(0).getSubjectX500Principal().getName());
    assertEquals("EC", store(files.clientKeyStore(), files).getCertificate("client").getPublicKey().getAlgorithm());
  }

  @Test
  void everyFileIsWhereItIsNamedAndHoldsTheCertificateItShould() throws Exception {
    CertificateFiles files = BenchSecurity.certificates(dir);
    assertEquals(dir, files.dir());
    X509Certificate ca = pem(files.caPem()).get(0);
    assertEquals(ca, (X509Certificate) store(files.trustStore(), files).getCertificate("ca"));

    KeyStore server = store(files.serverKeyStore(), files);
    X509Certificate serverCertificate = (X509Certificate) server.getCertificate("server");
    assertTrue(serverCertificate.getSubjectX500Principal().getName().contains("CN=" + BenchSecurity.HOST));
    serverCertificate.verify(ca.getPublicKey());
    assertTrue(server.isKeyEntry("server"), "the key is in the store, under the store's password");
    assertEquals(serverCertificate, pem(files.serverPem().certificateChain()).get(0),
        "openssl s_server presents the certificate the Java servers present");
    assertTrue(Files.readString(files.serverPem().privateKey()).startsWith("-----BEGIN PRIVATE KEY-----"),
        "an unencrypted PKCS#8 key, as s_server reads it");

    X509Certificate client = (X509Certificate) store(files.clientKeyStore(), files).getCertificate("client");
    assertTrue(client.getSubjectX500Principal().getName().contains("CN=ingest"), client.toString());
    client.verify(ca.getPublicKey());
  }

  @Test
  void everyFixtureHasItsOwnCaAndARandomPassword() throws Exception {
    CertificateFiles one = BenchSecurity.certificates(Files.createDirectory(dir.resolve("one")));
    CertificateFiles two = BenchSecurity.certificates(Files.createDirectory(dir.resolve("two")));
    assertNotEquals(pem(one.caPem()), pem(two.caPem()));
    String password = new String(one.password().chars());
    assertTrue(password.matches("[0-9a-f]{24}"), "12 random bytes in hex: " + password.length() + " characters");
    assertNotEquals(password, new String(two.password().chars()));
  }

  @Test
  void aChildReadsTheFilesAndTheBenchmarksOwnSecretsBackFromTheDirectoryAlone() throws Exception {
    CertificateFiles written = BenchSecurity.certificates(dir);
    Properties more = new Properties();
    more.setProperty("token.id", "0a0b");
    Path file = written.writeSecrets(more);
    assertEquals(dir.resolve(CertificateFiles.SECRETS), file);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));

    Properties secrets = CertificateFiles.readSecrets(dir);
    assertEquals("0a0b", secrets.getProperty("token.id"));
    CertificateFiles read = CertificateFiles.of(dir, secrets);
    assertArrayEquals(written.password().chars(), read.password().chars());
    assertEquals(List.of(written.serverKeyStore(), written.clientKeyStore(), written.trustStore(), written.caPem(),
        written.serverPem().certificateChain(), written.serverPem().privateKey()), List.of(read.serverKeyStore(),
        read.clientKeyStore(), read.trustStore(), read.caPem(), read.serverPem().certificateChain(),
        read.serverPem().privateKey()));
    assertTrue(store(read.serverKeyStore(), read).isKeyEntry("server"), "the password read back opens the store");
    assertEquals("0a0b", more.getProperty("token.id"));
    assertEquals(1, more.size(), "the caller's properties are left as they were");
  }

  @Test
  void aSecondRunsSecretsAreRefusedAndMissingOnesNamed() throws Exception {
    CertificateFiles files = BenchSecurity.certificates(dir);
    files.writeSecrets(new Properties());
    assertThrows(FileAlreadyExistsException.class, () -> files.writeSecrets(new Properties()));

    Path empty = Files.createDirectory(dir.resolve("empty"));
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> CertificateFiles.readSecrets(empty));
    assertEquals("cannot read the benchmark's secrets in " + empty, e.getMessage());
    IllegalArgumentException noPassword = assertThrows(IllegalArgumentException.class,
        () -> CertificateFiles.of(empty, new Properties()));
    assertEquals("the benchmark's secrets in " + empty + " have no store.password", noPassword.getMessage());
  }

  @Test
  void aServerMadeOfTheFilesReadBackServesAClientTrustingThePemOnly() throws Exception {
    CertificateFiles created = BenchSecurity.certificates(dir);
    created.writeSecrets(new Properties());
    CertificateFiles child = CertificateFiles.of(dir, CertificateFiles.readSecrets(dir));
    SSLContext server = context(store(child.serverKeyStore(), child), child, null);
    SSLContext client = context(null, created, pemTrust(created.caPem()));
    assertEquals("CN=" + BenchSecurity.HOST, handshake(server, client, false));

    CertificateFiles other = BenchSecurity.certificates(Files.createDirectory(dir.resolve("other")));
    SSLContext stranger = context(null, other, pemTrust(other.caPem()));
    assertThrows(SSLHandshakeException.class, () -> handshake(server, stranger, false),
        "another fixture's CA does not vouch for this server");
  }

  @Test
  void mutualTlsNamesTheClientOfTheClientStore() throws Exception {
    CertificateFiles files = BenchSecurity.certificates(dir);
    KeyStore trust = store(files.trustStore(), files);
    SSLContext server = context(store(files.serverKeyStore(), files), files, trust);
    SSLContext client = context(store(files.clientKeyStore(), files), files, trust);
    assertEquals("CN=ingest", handshake(server, client, true));
  }

  @Test
  void pemTrustingTlsGivesServersTheStoresAndClientsTheCaPemAlone() {
    CertificateFiles files = BenchSecurity.certificates(dir);
    TlsSettings server = files.pemTrustingTls(SecurityConfig.builder().mode(SecurityMode.TLS), true).build().tls();
    assertEquals(ClientAuth.NONE, server.clientAuth());
    assertStore(files.serverKeyStore(), StoreType.PKCS12, true, server.keyStore().orElseThrow());
    assertStore(files.trustStore(), StoreType.PKCS12, true, server.trustStore().orElseThrow());

    TlsSettings client = files.pemTrustingTls(SecurityConfig.builder().mode(SecurityMode.TLS), false).build().tls();
    assertFalse(client.keyStore().isPresent(), "no client certificate");
    assertStore(files.caPem(), StoreType.PEM, false, client.trustStore().orElseThrow());
  }

  @Test
  void mutualTlsConfigurationsCarryTheClientStoreAndAskForIt() {
    CertificateFiles files = BenchSecurity.certificates(dir);
    TlsSettings server = files.tls(SecurityConfig.builder().mode(SecurityMode.TLS), true, true).build().tls();
    assertEquals(ClientAuth.NEED, server.clientAuth());
    TlsSettings client = files.tls(SecurityConfig.builder().mode(SecurityMode.TLS), false, true).build().tls();
    assertStore(files.clientKeyStore(), StoreType.PKCS12, true, client.keyStore().orElseThrow());
    assertStore(files.trustStore(), StoreType.PKCS12, true, client.trustStore().orElseThrow());
    TlsSettings oneWay = files.tls(SecurityConfig.builder().mode(SecurityMode.TLS), false, false).build().tls();
    assertFalse(oneWay.keyStore().isPresent());
  }

  private static void assertStore(Path path, StoreType type, boolean password, StoreLocation store) {
    assertEquals(path, store.path());
    assertEquals(type, store.type());
    assertEquals(password, store.password().isPresent(), store.toString());
  }

  private static KeyStore store(Path file, CertificateFiles files) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, files.password().chars());
    }
    return store;
  }

  private static List<X509Certificate> pem(Path file) throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      return CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
          .map(X509Certificate.class::cast).toList();
    }
  }

  private static KeyStore pemTrust(Path caPem) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", pem(caPem).get(0));
    return trust;
  }

  /** A TLS 1.3 context with {@code keys} (none for a one-way client) and {@code trust} (none for a server). */
  private static SSLContext context(KeyStore keys, CertificateFiles files, KeyStore trust) throws Exception {
    KeyManagerFactory kmf = null;
    if (keys != null) {
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, files.password().chars());
    }
    TrustManagerFactory tmf = null;
    if (trust != null) {
      tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
    }
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(kmf == null ? null : kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
    return context;
  }

  /**
   * One handshake on loopback, the client checking the server's name as {@link BenchSecurity#HOST}, and one byte
   * each way.
   *
   * @return the name the other side authenticated as: the client's if {@code mutual}, else the server's
   */
  private static String handshake(SSLContext server, SSLContext client, boolean mutual) throws Exception {
    try (SSLServerSocket listening = (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0, 1,
        InetAddress.getLoopbackAddress())) {
      listening.setNeedClientAuth(mutual);
      CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
        try (SSLSocket accepted = (SSLSocket) listening.accept()) {
          accepted.setSoTimeout(10_000);
          int b = accepted.getInputStream().read();
          accepted.getOutputStream().write(b + 1);
          return mutual ? accepted.getSession().getPeerPrincipal().getName() : "";
        } catch (Exception e) {
          return "server failed: " + e;
        }
      });
      String serverName;
      try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(BenchSecurity.HOST,
          listening.getLocalPort())) {
        socket.setSoTimeout(10_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        socket.getOutputStream().write(41);
        assertEquals(42, socket.getInputStream().read());
        serverName = socket.getSession().getPeerPrincipal().getName();
      }
      // Read after the client closed: a TLS 1.3 server's close waits for the client's.
      String clientName = served.get(10, TimeUnit.SECONDS);
      return mutual ? clientName : serverName;
    }
  }
}
