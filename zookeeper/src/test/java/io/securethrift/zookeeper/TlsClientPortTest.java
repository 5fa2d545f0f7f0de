package io.securethrift.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.ChildJvm;
import io.securethrift.core.ClientAuth;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.IssuedCertificate;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.PemFiles;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A standalone server whose only client port is TLS (secureClientPort, no clientPort). */
class TlsClientPortTest {
  @RegisterExtension
  static CertificateAuthorityExtension certs = new CertificateAuthorityExtension();

  private static final char[] PASSWORD = "zk-test-pw".toCharArray();
  private static LocalEnsemble zk;
  private static SecurityConfig client;
  private static Path dir;

  @BeforeAll
  static void start() {
    TestCertificateAuthority ca = certs.ca();
    dir = certs.directory();
    Path trust = ca.writeTrustStore(dir, KeyStoreFormat.JKS, PASSWORD);
    SecurityConfig server = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.JSSE)
        .keyStore(ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD), null,
            Secret.of(PASSWORD))
        .trustStore(trust, null, Secret.of(PASSWORD)).clientAuth(ClientAuth.NEED).build();
    client = SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(TlsEngine.JSSE)
        .keyStore(ca.leaf().commonName("client").issue().writeKeyStore(dir, "client", KeyStoreFormat.PKCS12,
            PASSWORD), null, Secret.of(PASSWORD))
        .trustStore(trust, StoreType.JKS, Secret.of(PASSWORD)).build();
    zk = LocalEnsemble.builder().security(server).clientPort(false).secureClientPort(true).start();
    zk.awaitServing(List.of(1), ZooKeeperClientSecurity.clientConfig(client), Duration.ofSeconds(60));
  }

  @AfterAll
  static void stop() {
    if (zk != null) {
      zk.close();
    }
  }

  @Test
  void jsseClientCreatesAndReads() throws Exception {
    try (ZooKeeper c = Clients.connect(zk.connectString(true), ZooKeeperClientSecurity.clientConfig(client),
        Duration.ofSeconds(30))) {
      c.create("/jsse", "hello".getBytes(), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      assertEquals("hello", new String(c.getData("/jsse", false, null)));
    }
  }

  @Test
  void pemClientWithKeyAndChainInOneFile() throws Exception {
    IssuedCertificate cert = certs.ca().leaf().commonName("pem-client").issue();
    PemFiles pem = cert.writePem(dir, "pem-client", null);
    Path combined = dir.resolve("pem-client-combined.pem");
    Files.writeString(combined, Files.readString(pem.privateKey()) + Files.readString(pem.certificateChain()));
    SecurityConfig pemClient = client.toBuilder().keyStore(combined, StoreType.PEM, null)
        .trustStore(certs.ca().writeCaPem(dir), StoreType.PEM, null).build();
    try (ZooKeeper c = Clients.connect(zk.connectString(true), ZooKeeperClientSecurity.clientConfig(pemClient),
        Duration.ofSeconds(30))) {
      assertTrue(c.exists("/", false) != null);
    }
  }

  @Test
  void conscryptClientInItsOwnJvmCreatesAndReads() throws Exception {
    Path props = dir.resolve("conscrypt-client.properties");
    Files.writeString(props, client.toBuilder().tlsEngine(TlsEngine.CONSCRYPT).tlsProtocols(List.of("TLSv1.2"))
        .build().toProperties().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining("\n")));
    try (ChildJvm child = ChildJvm.builder(ConscryptClientMain.class).jvmOptions(List.of("-Xmx128m"))
        .args(ConscryptClientMain.args(props, zk.connectString(true), "/conscrypt")).log(dir.resolve("conscrypt.log"))
        .talk().start()) {
      String out = new String(child.process().getInputStream().readAllBytes()).trim();
      assertTrue(child.process().waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, child.process().exitValue(), child.logTail(40));
      assertEquals("engine=Conscrypt data=from conscrypt", out);
    } finally {
      Files.deleteIfExists(props);
    }
  }

  @Test
  void conscryptEngineIsRefusedWhereConscryptIsNotTheJvmsTls() {
    SecurityConfig conscrypt = client.toBuilder().tlsEngine(TlsEngine.CONSCRYPT).tlsProtocols(List.of("TLSv1.2"))
        .build();
    var e = assertThrows(io.securethrift.core.ConfigException.class,
        () -> ZooKeeperClientSecurity.clientConfig(conscrypt));
    assertEquals("securethrift.tls.engine", e.key());
  }

  @Test
  void plaintextClientCannotConnect() throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    SecurityConfig plain = SecurityConfig.builder().build();
    try (ZooKeeper c = Clients.open(zk.connectString(true), ZooKeeperClientSecurity.clientConfig(plain), connected)) {
      assertFalse(connected.await(4, TimeUnit.SECONDS), "a plaintext client got a session on the TLS port");
      assertFalse(c.getState().isConnected());
      KeeperException e = assertThrows(KeeperException.class, () -> c.exists("/", false));
      assertEquals(KeeperException.Code.CONNECTIONLOSS, e.code());
    }
    assertTrue(zk.isServing(1, ZooKeeperClientSecurity.clientConfig(client)), "the server must stay up");
  }
}
