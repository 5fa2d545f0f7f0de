package io.securethrift.accumulo;

import static io.securethrift.accumulo.Stores.props;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreLocation;
import io.securethrift.core.StoreType;
import io.securethrift.core.identity.ImpersonationRules;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Accumulo 1.7 accumulo-site.xml and 2.x accumulo.properties mapped onto SecurityConfig. */
class SiteConfigTest {
  @TempDir Path dir;
  private ConfigFixture fixture;

  @BeforeEach
  void stores() {
    fixture = new ConfigFixture(dir, "server");
  }

  @Test
  void emptySiteIsPlainWithAccumuloTimeout() {
    SecurityConfig config = fixture.site(props("instance.zookeeper.host", "zk:2181"));
    assertEquals(SecurityMode.NONE, config.mode());
    assertEquals(Duration.ofSeconds(120), config.timeouts().read());
  }

  @Test
  void sslSiteLoadsBothStoresAndRequiresClientCertificates() {
    SecurityConfig config = fixture.site(fixture.ssl("instance.rpc.ssl.clientAuth", "TRUE"));
    assertEquals(SecurityMode.TLS, config.mode());
    assertEquals(ClientAuth.NEED, config.tls().clientAuth());
    StoreLocation key = config.tls().keyStore().orElseThrow();
    assertEquals(fixture.keyStore(), key.path());
    assertEquals(StoreType.JKS, key.type());
    assertArrayEquals(Stores.KEY_PASSWORD, key.password().orElseThrow().chars());
    assertEquals(fixture.trustStore(), config.tls().trustStore().orElseThrow().path());
    assertArrayEquals(Stores.TRUST_PASSWORD, config.tls().trustStore().orElseThrow().password().orElseThrow().chars());
    assertEquals(List.of("TLSv1.2"), config.tls().protocols(), "1.7's TLSv1 and TLSv1.1 server defaults are dropped");
    assertTrue(config.tls().hostnameVerification(), "securethrift verifies host names unless told not to");
  }

  @Test
  void clientAuthOffStillLoadsTheNodesKeyStore() {
    SecurityConfig config = fixture.site(fixture.ssl());
    assertEquals(ClientAuth.NONE, config.tls().clientAuth());
    assertTrue(config.tls().keyStore().isPresent());
  }

  @Test
  void serverProtocolsAndClientProtocolAreUnitedNewestFirst() {
    SecurityConfig config = fixture.site(fixture.ssl("rpc.ssl.server.enabled.protocols", "TLSv1.2,TLSv1.3"));
    assertEquals(List.of("TLSv1.3", "TLSv1.2"), config.tls().protocols());
  }

  @Test
  void emptyKeyStorePasswordFallsBackToInstanceSecret() {
    Path store = Stores.keyStore(dir, "secret", "instance-secret".toCharArray());
    SecurityConfig config = fixture.site(fixture.ssl("rpc.javax.net.ssl.keyStore", store.toString(),
        "rpc.javax.net.ssl.keyStorePassword", "", "instance.secret", "instance-secret"));
    assertArrayEquals("instance-secret".toCharArray(),
        config.tls().keyStore().orElseThrow().password().orElseThrow().chars());
  }

  @Test
  void emptyTrustStorePasswordMeansNone() {
    SecurityConfig config = fixture.site(fixture.ssl("rpc.javax.net.ssl.trustStorePassword", ""));
    assertTrue(config.tls().trustStore().orElseThrow().password().isEmpty());
  }

  @Test
  void defaultStorePathsAreInTheConfDirectory() throws IOException {
    Path ssl = Files.createDirectories(dir.resolve("ssl"));
    Files.move(Stores.keyStore(dir, "keystore", "DEFAULT".toCharArray()), ssl.resolve("keystore.jks"));
    Files.move(fixture.trustStore(), ssl.resolve("truststore.jks"));
    SecurityConfig config = fixture.site(props("instance.rpc.ssl.enabled", "true",
        "rpc.ssl.client.protocol", "TLSv1.2"));
    assertEquals(ssl.resolve("keystore.jks").toAbsolutePath(), config.tls().keyStore().orElseThrow().path());
    assertArrayEquals("DEFAULT".toCharArray(), config.tls().keyStore().orElseThrow().password().orElseThrow().chars(),
        "instance.secret defaults to DEFAULT");
    assertEquals(ssl.resolve("truststore.jks").toAbsolutePath(), config.tls().trustStore().orElseThrow().path());
  }

  @Test
  void accumuloConfDirVariableWins(@TempDir Path confDir) throws IOException {
    Path ssl = Files.createDirectories(confDir.resolve("ssl"));
    Files.copy(fixture.keyStore(), ssl.resolve("keystore.jks"));
    Files.copy(fixture.trustStore(), ssl.resolve("truststore.jks"));
    SecurityConfig config = fixture.variables(Map.of("ACCUMULO_CONF_DIR", confDir.toString()))
        .site(props("instance.rpc.ssl.enabled", "true", "rpc.ssl.client.protocol", "TLSv1.3"));
    assertEquals(ssl.resolve("keystore.jks").toAbsolutePath(), config.tls().keyStore().orElseThrow().path());
    assertEquals(List.of("TLSv1.3", "TLSv1.2"), config.tls().protocols());
  }

  @Test
  void useJsseReadsTheJvmSystemProperties() {
    Properties jvm = new Properties();
    jvm.setProperty("javax.net.ssl.keyStore", fixture.keyStore().toString());
    jvm.setProperty("javax.net.ssl.keyStorePassword", new String(Stores.KEY_PASSWORD));
    jvm.setProperty("javax.net.ssl.keyStoreType", "JKS");
    jvm.setProperty("javax.net.ssl.trustStore", fixture.trustStore().toString());
    SecurityConfig config = fixture.systemProperties(jvm).site(props("instance.rpc.ssl.enabled", "true",
        "rpc.useJsse", "true", "rpc.javax.net.ssl.keyStore", "/nonexistent/ignored.jks",
        "rpc.ssl.client.protocol", "TLSv1.2"));
    assertEquals(fixture.keyStore(), config.tls().keyStore().orElseThrow().path());
    assertEquals(StoreType.JKS, config.tls().keyStore().orElseThrow().type());
    assertEquals(fixture.trustStore(), config.tls().trustStore().orElseThrow().path());
    assertTrue(config.tls().trustStore().orElseThrow().password().isEmpty());
  }

  @Test
  void useJsseClientAuthTrustsTheJvmTrustStoreProperty() {
    Properties jvm = new Properties();
    jvm.setProperty("javax.net.ssl.keyStore", fixture.keyStore().toString());
    jvm.setProperty("javax.net.ssl.trustStore", fixture.trustStore().toString());
    SecurityConfig config = fixture.systemProperties(jvm).accumuloProperties(props("instance.rpc.ssl.enabled", "true",
        "rpc.useJsse", "true", "instance.rpc.ssl.clientAuth", "true"));
    assertEquals(ClientAuth.NEED, config.tls().clientAuth());
    assertEquals(fixture.trustStore(), config.tls().trustStore().orElseThrow().path());
  }

  @Test
  void useJsseWithoutSystemPropertiesUsesTheJvmDefaults() {
    SecurityConfig config = fixture.site(props("instance.rpc.ssl.enabled", "true", "rpc.useJsse", "true",
        "rpc.ssl.client.protocol", "TLSv1.2"));
    assertTrue(config.tls().keyStore().isEmpty());
    assertTrue(config.tls().trustStore().isEmpty());
  }

  @Test
  void saslSiteLogsInAsTheExpandedServerPrincipal() throws IOException {
    Path keytab = Files.writeString(dir.resolve("accumulo.keytab"), "keytab");
    SecurityConfig config = fixture.site(props("instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", "auth-conf",
        "general.kerberos.principal", "accumulo/_HOST@EXAMPLE.COM", "general.kerberos.keytab", keytab.toString(),
        "general.kerberos.renewal.period", "1m", "general.rpc.timeout", "5s",
        "instance.rpc.sasl.allowed.user.impersonation", "proxy:alice,bob;admin:*",
        "instance.rpc.sasl.allowed.host.impersonation", "gw1.example.com;*"));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF), config.sasl().qop());
    assertEquals("accumulo/" + ConfigFixture.HOST + "@EXAMPLE.COM", config.sasl().kerberosPrincipal().orElseThrow());
    assertEquals(keytab, config.sasl().kerberosKeytab().orElseThrow());
    assertEquals("accumulo", config.sasl().serverPrimary());
    assertTrue(config.sasl().canonicalizeHostName(), "Accumulo names servers by their canonical host name");
    assertEquals(Duration.ofMinutes(1), config.sasl().renewalPeriod());
    assertEquals(Duration.ofSeconds(5), config.timeouts().read());
    assertEquals("proxy:alice,bob;admin:*", config.sasl().userImpersonation());
    assertEquals("gw1.example.com;*", config.sasl().hostImpersonation());
  }

  @Test
  void serverPrimaryFollowsTheNodePrincipal() {
    SecurityConfig config = fixture.site(props("instance.rpc.sasl.enabled", "true"));
    assertEquals("accumulo", config.sasl().serverPrimary());
    assertTrue(config.sasl().kerberosPrincipal().isEmpty(), "no principal: use the process's existing login");
  }

  @Test
  void legacyPerUserImpersonationIsConvertedToOneLineRules() {
    SecurityConfig config = fixture.site(props("instance.rpc.sasl.enabled", "true",
        "instance.rpc.sasl.impersonation.proxy.users", "alice,bob",
        "instance.rpc.sasl.impersonation.proxy.hosts", "gw1",
        "instance.rpc.sasl.impersonation.admin.users", "*",
        "instance.rpc.sasl.impersonation.admin.hosts", "*"));
    assertEquals("proxy:alice,bob;admin:*", config.sasl().userImpersonation());
    assertEquals("gw1;*", config.sasl().hostImpersonation());
  }

  @Test
  void accumulo2ImpersonationRulesAreEnforcedByTheOneParser() {
    SecurityConfig config = fixture.accumuloProperties(props("instance.rpc.sasl.enabled", "true",
        "instance.rpc.sasl.allowed.user.impersonation", "proxy@EX.COM:alice@EX.COM;admin@EX.COM:*",
        "instance.rpc.sasl.allowed.host.impersonation", "127.0.0.1;*"));
    ImpersonationRules rules = ImpersonationRules.from(config);
    rules.checkCaller(caller("proxy@EX.COM", "127.0.0.1"), "alice@EX.COM");
    rules.checkCaller(caller("admin@EX.COM", "192.0.2.7"), "bob@EX.COM");
    SecurityException refused = assertThrows(SecurityException.class,
        () -> rules.checkCaller(caller("proxy@EX.COM", "127.0.0.1"), "bob@EX.COM"));
    assertEquals("proxy@EX.COM may not act as bob@EX.COM: it may impersonate only [alice@EX.COM]",
        refused.getMessage());
  }

  private static PeerIdentity caller(String principal, String address) {
    return TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress(address, 4000)).principal(principal)
        .sasl("GSSAPI", QualityOfProtection.AUTH).build();
  }

  @Test
  void saslWithoutAQopKeyKeepsAccumulosAuthRatherThanTheLibraryDefault() {
    SecurityConfig config = fixture.site(props("instance.rpc.sasl.enabled", "true"));
    assertEquals(List.of(QualityOfProtection.AUTH), config.sasl().qop());
  }

  @Test
  void saslOverTlsIsAnOptIn() {
    SecurityConfig config = fixture.site(fixture.ssl("instance.rpc.sasl.enabled", "true",
        "securethrift.mode", "sasl-over-tls"));
    assertEquals(SecurityMode.SASL_OVER_TLS, config.mode());
    assertTrue(config.tls().keyStore().isPresent());
    assertEquals(List.of(QualityOfProtection.AUTH), config.sasl().qop());
  }

  @Test
  void kerberosKeysAreIgnoredWithoutSasl() {
    SecurityConfig config = fixture.site(props("general.kerberos.principal", "hdfs/_HOST@EXAMPLE.COM",
        "general.kerberos.keytab", "/nonexistent/hdfs.keytab"));
    assertTrue(config.sasl().kerberosPrincipal().isEmpty(), "HDFS logins are not RPC settings");
  }

  @Test
  void libraryKeysAddWhatAccumuloCannotSay() {
    SecurityConfig config = fixture.site(fixture.ssl("securethrift.tls.hostname.verification", "false",
        "securethrift.tls.engine", "jsse", "securethrift.timeout.handshake", "3s"));
    assertFalse(config.tls().hostnameVerification());
    assertEquals("jsse", config.tls().engine().token());
    assertEquals(Duration.ofSeconds(3), config.timeouts().handshake());
  }

  @Test
  void qopPreferenceListKeepsAccumulosLevel() {
    SecurityConfig config = fixture.site(props("instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", "auth-int",
        "securethrift.sasl.qop", "auth-conf,auth-int"));
    assertEquals(List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT), config.sasl().qop());
  }

  @Test
  void cipherSuitesApplyToTheNode() {
    SecurityConfig config = fixture.site(fixture.ssl("rpc.ssl.cipher.suites",
        "TLS_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"));
    assertEquals(List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
        config.tls().cipherSuites());
  }

  @Test
  void weakCipherSuitesNeedTheLibraryOptInInTheSameFile() {
    SecurityConfig config = fixture.site(fixture.ssl("rpc.ssl.cipher.suites", "TLS_RSA_WITH_AES_128_CBC_SHA",
        "securethrift.tls.allow.weak.cipher.suites", "true"));
    assertEquals(List.of("TLS_RSA_WITH_AES_128_CBC_SHA"), config.tls().cipherSuites());
    assertTrue(config.tls().allowWeakCipherSuites());
  }

  @Test
  void accumulo2DefaultsAreTls12AndNoDefaultStores() {
    SecurityConfig config = fixture.accumuloProperties(props("instance.rpc.ssl.enabled", "true",
        "rpc.javax.net.ssl.keyStore", fixture.keyStore().toString(),
        "rpc.javax.net.ssl.keyStorePassword", new String(Stores.KEY_PASSWORD),
        "rpc.javax.net.ssl.trustStore", fixture.trustStore().toString(), "rpc.backlog", "50"));
    assertEquals(List.of("TLSv1.2"), config.tls().protocols());
    assertEquals(fixture.keyStore(), config.tls().keyStore().orElseThrow().path());
  }

  @Test
  void classPathStoreIsCopiedToAPrivateFile(@TempDir Path classPath) throws IOException {
    Files.createDirectories(classPath.resolve("ssl"));
    Files.copy(fixture.keyStore(), classPath.resolve("ssl/cp-keystore.jks"));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classPath.toUri().toURL()}, null)) {
      SecurityConfig config =
          fixture.classLoader(loader).site(fixture.ssl("rpc.javax.net.ssl.keyStore", "ssl/cp-keystore.jks"));
      Path copy = config.tls().keyStore().orElseThrow().path();
      try {
        assertArrayEquals(Files.readAllBytes(fixture.keyStore()), Files.readAllBytes(copy));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(copy));
        assertEquals(StoreType.JKS, config.tls().keyStore().orElseThrow().type());
      } finally {
        Files.delete(copy);
      }
    }
  }

  @Test
  void secretsStayOutOfToString() {
    String text = fixture.site(fixture.ssl()).toString();
    assertFalse(text.contains(new String(Stores.KEY_PASSWORD)), text);
    assertFalse(text.contains(new String(Stores.TRUST_PASSWORD)), text);
  }

  @Test
  void publicEntryPointsReadFiles() {
    Path site = fixture.siteXml(fixture.ssl());
    assertEquals(SecurityMode.TLS, AccumuloSecurityConfig.fromSiteXml(site).mode());
    Path properties = fixture.properties("accumulo.properties", props("instance.rpc.sasl.enabled", "true"));
    assertEquals(SecurityMode.SASL, AccumuloSecurityConfig.fromAccumuloProperties(properties).mode());
  }
}
