package io.securethrift.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.CipherSuites;
import io.securethrift.core.ConfigException;
import io.securethrift.core.OcspMode;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.Secret;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.tls.internal.ConscryptProvider;
import io.securethrift.tls.internal.NettyOpenSslEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The generated zoo.cfg keys, and the Conscrypt supplier finding its configuration through them. */
class ServerConfigAndSupplierTest {
  @RegisterExtension
  static CertificateAuthorityExtension certs = new CertificateAuthorityExtension();

  private static final char[] PASSWORD = "cfg-pw".toCharArray();

  private static SecurityConfig tls(TlsEngine engine) {
    Path dir = certs.directory();
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine).tlsProtocols(List.of("TLSv1.2"))
        .keyStore(certs.ca().leaf().issue().writeKeyStore(dir, "node", KeyStoreFormat.JKS, PASSWORD), null,
            Secret.of(PASSWORD))
        .trustStore(certs.ca().writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD), null, Secret.of(PASSWORD))
        .build();
  }

  @Test
  void tlsOnlyQuorumMemberHasTheZooKeeperKeys() {
    Properties p = ZooKeeperServerConfig.builder(tls(TlsEngine.JSSE)).confDir(certs.directory().resolve("a"))
        .secureClientPort(2281).myid(1).server(1, "zk1", 2888, 3888).quorumTls(true).build().toProperties();
    assertEquals("2281", p.getProperty("secureClientPort"));
    assertFalse(p.containsKey("clientPort"));
    assertEquals("org.apache.zookeeper.server.NettyServerCnxnFactory", p.getProperty("serverCnxnFactory"));
    assertEquals("true", p.getProperty("sslQuorum"));
    assertEquals("JKS", p.getProperty("ssl.quorum.keyStore.type"));
    assertEquals("PKCS12", p.getProperty("ssl.trustStore.type"));
    assertEquals("TLSv1.2", p.getProperty("ssl.enabledProtocols"));
    assertEquals("need", p.getProperty("ssl.quorum.clientAuth"));
    assertEquals("zk1:2888:3888", p.getProperty("server.1"));
  }

  /**
   * securethrift's FIPS profile writes ZooKeeper's own FIPS mode (so no -Dzookeeper.fips-mode=false undoes it) and
   * only approved suites, for the client port, the quorum and clients; without it ZooKeeper's default stands.
   */
  @Test
  void fipsProfileSetsZooKeepersFipsModeAndApprovedSuites() {
    SecurityConfig fips = tls(TlsEngine.JSSE).toBuilder().tlsProtocols(List.of("TLSv1.3", "TLSv1.2")).fips(true)
        .build();
    Properties p = ZooKeeperServerConfig.builder(fips).confDir(certs.directory().resolve("fips"))
        .secureClientPort(2281).myid(1).server(1, "zk1", 2888, 3888).quorumTls(true).build().toProperties();
    assertEquals("true", p.getProperty("fips-mode"));
    String approved = String.join(",", CipherSuites.FIPS);
    assertEquals(approved, p.getProperty("ssl.ciphersuites"));
    assertEquals(approved, p.getProperty("ssl.quorum.ciphersuites"));
    ZKClientConfig client = ZooKeeperClientSecurity.clientConfig(fips);
    assertEquals("true", client.getProperty("zookeeper.fips-mode"));
    assertEquals(approved, client.getProperty("zookeeper.ssl.ciphersuites"));

    SecurityConfig plain = fips.toBuilder().fips(false).build();
    Properties q = ZooKeeperServerConfig.builder(plain).confDir(certs.directory().resolve("plain"))
        .secureClientPort(2281).build().toProperties();
    assertFalse(q.containsKey("fips-mode"));
    assertTrue(q.getProperty("ssl.ciphersuites").contains("CHACHA20"));
    assertNull(ZooKeeperClientSecurity.clientConfig(plain).getProperty("zookeeper.fips-mode"));
  }

  @Test
  void ocspHardFailIsZooKeepersOcspAndWhatItCannotDoIsRefused() {
    SecurityConfig tls = tls(TlsEngine.JSSE);
    assertEquals("false", ZooKeeperClientSecurity.clientConfig(tls).getProperty("zookeeper.ssl.ocsp"));
    SecurityConfig hard = tls.toBuilder().ocsp(OcspMode.HARD_FAIL).build();
    assertEquals("true", ZooKeeperClientSecurity.clientConfig(hard).getProperty("zookeeper.ssl.ocsp"));
    Properties p = ZooKeeperServerConfig.builder(hard).confDir(certs.directory().resolve("ocsp"))
        .secureClientPort(2281).myid(1).server(1, "zk1", 2888, 3888).quorumTls(true).build().toProperties();
    assertEquals("true", p.getProperty("ssl.ocsp"));
    assertEquals("true", p.getProperty("ssl.quorum.ocsp"));
    assertFalse(p.containsKey("ssl.crl"));

    ConfigException e = assertThrows(ConfigException.class, () -> ZooKeeperClientSecurity.clientConfig(
        tls.toBuilder().ocsp(OcspMode.SOFT_FAIL).build()));
    assertEquals("securethrift.tls.revocation.ocsp", e.key());
    Path crl = certs.ca().writeCrl(certs.directory().resolve("zk.crl"), List.of());
    e = assertThrows(ConfigException.class, () -> ZooKeeperServerConfig.builder(
        tls.toBuilder().crlFiles(List.of(crl)).build()).confDir(certs.directory().resolve("crl"))
        .secureClientPort(2281).build());
    assertEquals("securethrift.tls.revocation.crl.files", e.key());
    assertTrue(e.getMessage().contains("ZooKeeper 3.9 reads no CRL files"), e.getMessage());
  }

  /**
   * securethrift.server.port.unification maps to ZooKeeper's client.portUnification: the plaintext client port takes
   * TLS too, with the client port's TLS keys; off by default.
   */
  @Test
  void portUnificationIsZooKeepersOnThePlaintextClientPort() {
    Properties unified = ZooKeeperServerConfig.builder(tls(TlsEngine.JSSE).toBuilder().portUnification(true).build())
        .confDir(certs.directory().resolve("u")).clientPort(2181).build().toProperties();
    assertEquals("true", unified.getProperty("client.portUnification"));
    assertEquals("2181", unified.getProperty("clientPort"));
    assertFalse(unified.containsKey("secureClientPort"));
    assertEquals("PKCS12", unified.getProperty("ssl.trustStore.type"));
    assertEquals("TLSv1.2", unified.getProperty("ssl.enabledProtocols"));
    Properties plain = ZooKeeperServerConfig.builder(tls(TlsEngine.JSSE)).confDir(certs.directory().resolve("p"))
        .clientPort(2181).build().toProperties();
    assertFalse(plain.containsKey("client.portUnification"));
    assertFalse(plain.containsKey("ssl.trustStore.type"));
  }

  @Test
  void secureClientPortWithoutTlsIsRejectedNamingTheMode() {
    ConfigException e = assertThrows(ConfigException.class, () -> ZooKeeperServerConfig
        .builder(SecurityConfig.builder().build()).confDir(certs.directory()).secureClientPort(2281).build());
    assertEquals("securethrift.mode", e.key());
  }

  @Test
  void kerberosWithTheLibraryDefaultQopIsRejectedSayingToSetAuth() {
    SecurityConfig sasl = SecurityConfig.builder().mode(SecurityMode.SASL).build();
    String message = "securethrift.sasl.qop: 'auth-conf' cannot be honoured: ZooKeeper SASL only authenticates and"
        + " never protects data; set it to auth (securethrift's default is auth-conf), and use mode sasl-over-tls"
        + " when the traffic must be protected";
    assertEquals(message, assertThrows(ConfigException.class,
        () -> ZooKeeperClientSecurity.clientConfig(sasl)).getMessage());
    assertEquals(message, assertThrows(ConfigException.class, () -> ZooKeeperServerConfig.builder(sasl)
        .confDir(certs.directory()).clientPort(2181).build()).getMessage());
  }

  @Test
  void quorumSaslRequiresKerberosBothWaysAndAsksForEachPeersHost() throws Exception {
    Path keytab = Files.write(certs.directory().resolve("zk.keytab"), new byte[] {5, 2}); // checked to exist only
    SecurityConfig sasl = SecurityConfig.builder().mode(SecurityMode.SASL).qop(QualityOfProtection.AUTH)
        .kerberosLogin("zookeeper/zk1.example.com@EXAMPLE.COM", keytab).build();
    Properties p = ZooKeeperServerConfig.builder(sasl).confDir(certs.directory().resolve("q")).clientPort(2181)
        .myid(1).server(1, "zk1.example.com", 2888, 3888).quorumSasl(true).build().toProperties();
    assertEquals("true", p.getProperty("quorum.auth.enableSasl"));
    assertEquals("true", p.getProperty("quorum.auth.learnerRequireSasl"));
    assertEquals("true", p.getProperty("quorum.auth.serverRequireSasl"));
    assertEquals("zookeeper/_HOST", p.getProperty("quorum.auth.kerberos.servicePrincipal"));
    assertNotEquals(p.getProperty("quorum.auth.learner.saslLoginContext"),
        p.getProperty("quorum.auth.server.saslLoginContext"), "the learner logs in as an initiator, the server not");
    assertEquals(p.getProperty("sasl.serverconfig"), p.getProperty("quorum.auth.server.saslLoginContext"));

    ConfigException e = assertThrows(ConfigException.class, () -> ZooKeeperServerConfig.builder(tls(TlsEngine.JSSE))
        .confDir(certs.directory().resolve("r")).clientPort(2181).quorumSasl(true).build());
    assertEquals("securethrift.mode: quorum SASL was asked for, but 'tls' has no Kerberos keytab login; use sasl with"
        + " securethrift.sasl.kerberos.principal and .keytab", e.getMessage());
  }

  @Test
  void eachEngineIsAskedWhatZooKeeperMakesOfIt() {
    SecurityConfig openssl = tls(TlsEngine.OPENSSL);
    assertEquals("OPENSSL", ZooKeeperServerConfig.builder(openssl).confDir(certs.directory().resolve("o"))
        .secureClientPort(2281).build().toProperties().getProperty("ssl.sslProvider"));
    assertNull(ZooKeeperServerConfig.builder(tls(TlsEngine.JSSE)).confDir(certs.directory().resolve("j"))
        .secureClientPort(2281).build().toProperties().getProperty("ssl.sslProvider"));
    assertTrue(ConscryptDefaultTls.chosen(tls(TlsEngine.CONSCRYPT).tls()));
    assertFalse(ConscryptDefaultTls.chosen(tls(TlsEngine.JSSE).tls()) || ConscryptDefaultTls.chosen(openssl.tls()));
  }

  /** One openssl engine, the TLS module's: ZooKeeper's client port and securethrift's Thrift transports share it. */
  @Test
  void opensslIsTheTlsModulesEngineForThriftTransportsToo() {
    SecurityConfig openssl = tls(TlsEngine.OPENSSL);
    assertTrue(openssl.tls().engineProvider() instanceof NettyOpenSslEngine);
    try (ClientTransportFactory factory = ClientTransportFactory.create(openssl)) {
      assertEquals(TlsEngine.OPENSSL, factory.config().tls().engine());
    }
  }

  @Test
  void supplierBuildsConscryptContextFromTheFileItsPropertyNames() throws Exception {
    Path zooCfg = ZooKeeperServerConfig.builder(tls(TlsEngine.JSSE)).confDir(certs.directory().resolve("b"))
        .secureClientPort(2281).build().write();
    String file = SecureZooKeeperServerMain.load(zooCfg).getProperty(ZooKeeperServerConfig.SECURITY_FILE_KEY);
    String previous = System.getProperty(ConscryptSslContextSupplier.CONFIG_PROPERTY);
    System.setProperty(ConscryptSslContextSupplier.CONFIG_PROPERTY, file);
    try {
      SSLContext context = new ConscryptSslContextSupplier().get();
      assertSame(ConscryptProvider.instance(), context.getProvider(), "the JVM's one Conscrypt provider");
    } finally {
      if (previous == null) {
        System.clearProperty(ConscryptSslContextSupplier.CONFIG_PROPERTY);
      } else {
        System.setProperty(ConscryptSslContextSupplier.CONFIG_PROPERTY, previous);
      }
    }
    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(Path.of(file))));
  }
}
