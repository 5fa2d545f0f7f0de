package io.securethrift.accumulo;

import static io.securethrift.accumulo.Stores.props;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Accumulo 1.7 client.conf and 2.x accumulo-client.properties mapped onto SecurityConfig. */
class ClientConfigTest {
  @TempDir Path dir;
  private ConfigFixture fixture;

  @BeforeEach
  void stores() {
    fixture = new ConfigFixture(dir, "client");
  }

  @Test
  void clientConfWithoutClientAuthLoadsOnlyTheTrustStore() {
    SecurityConfig config = fixture.clientConf(props("instance.name", "test", "instance.rpc.ssl.enabled", "true",
        "rpc.javax.net.ssl.trustStore", fixture.trustStore().toString(), "rpc.ssl.client.protocol", "TLSv1.2",
        "rpc.ssl.server.enabled.protocols", "TLSv1,TLSv1.3"));
    assertEquals(SecurityMode.TLS, config.mode());
    assertTrue(config.tls().keyStore().isEmpty(), "the default key store path is not even looked at");
    assertEquals(fixture.trustStore(), config.tls().trustStore().orElseThrow().path());
    assertEquals(List.of("TLSv1.2"), config.tls().protocols(), "a client uses rpc.ssl.client.protocol alone");
  }

  @Test
  void clientConfWithClientAuthPresentsItsKeyStore() {
    SecurityConfig config = fixture.clientConf(props("instance.rpc.ssl.enabled", "true",
        "instance.rpc.ssl.clientAuth", "true", "rpc.javax.net.ssl.keyStore", fixture.keyStore().toString(),
        "rpc.javax.net.ssl.keyStorePassword", new String(Stores.KEY_PASSWORD), "rpc.javax.net.ssl.keyStoreType",
        "JKS", "rpc.javax.net.ssl.trustStore", fixture.trustStore().toString(), "rpc.ssl.client.protocol", "TLSv1.3"));
    assertEquals(fixture.keyStore(), config.tls().keyStore().orElseThrow().path());
    assertEquals(ClientAuth.NONE, config.tls().clientAuth(), "only servers ask for client certificates");
    assertEquals(List.of("TLSv1.3"), config.tls().protocols());
  }

  @Test
  void clientConfWithJvmStoresMayLeaveTheTrustStoreToTheJvm() {
    Properties jvm = new Properties();
    jvm.setProperty("javax.net.ssl.keyStore", fixture.keyStore().toString());
    jvm.setProperty("javax.net.ssl.keyStorePassword", new String(Stores.KEY_PASSWORD));
    SecurityConfig config = fixture.systemProperties(jvm).clientConf(props("instance.rpc.ssl.enabled", "true",
        "instance.rpc.ssl.clientAuth", "true", "rpc.useJsse", "true", "rpc.ssl.client.protocol", "TLSv1.2"));
    assertEquals(fixture.keyStore(), config.tls().keyStore().orElseThrow().path());
    assertTrue(config.tls().trustStore().isEmpty(), "a client checks servers against the JVM's default CAs");
  }

  @Test
  void clientConfSaslUsesTheServerPrimaryAndALibraryLogin() throws IOException {
    Path keytab = Files.writeString(dir.resolve("alice.keytab"), "keytab");
    SecurityConfig config = fixture.clientConf(props("instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", "auth-int",
        "kerberos.server.primary", "accumulo2", "general.rpc.timeout", "30s",
        "securethrift.sasl.kerberos.principal", "alice@EXAMPLE.COM",
        "securethrift.sasl.kerberos.keytab", keytab.toString()));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals("accumulo2", config.sasl().serverPrimary());
    assertEquals(List.of(QualityOfProtection.AUTH_INT), config.sasl().qop());
    assertEquals("alice@EXAMPLE.COM", config.sasl().kerberosPrincipal().orElseThrow());
  }

  @Test
  void clientPropertiesKeyStorePathPresentsTheKeyStore() {
    SecurityConfig config = fixture.clientProperties(props("instance.name", "test", "ssl.enabled", "true",
        "ssl.keystore.path", fixture.keyStore().toString(), "ssl.keystore.password", new String(Stores.KEY_PASSWORD),
        "ssl.keystore.type", "jks", "ssl.truststore.path", fixture.trustStore().toString(),
        "ssl.truststore.password", new String(Stores.TRUST_PASSWORD), "ssl.truststore.type", "jks",
        "rpc.transport.idle.timeout", "3s"));
    assertEquals(ClientAuth.NONE, config.tls().clientAuth(), "only servers ask for client certificates");
    assertEquals(fixture.keyStore(), config.tls().keyStore().orElseThrow().path());
    assertEquals(StoreType.JKS, config.tls().trustStore().orElseThrow().type());
    assertArrayEquals(Stores.TRUST_PASSWORD, config.tls().trustStore().orElseThrow().password().orElseThrow().chars());
    assertEquals(List.of("TLSv1.2"), config.tls().protocols(), "Accumulo 2.x clients use TLSv1.2");
  }

  @Test
  void clientPropertiesWithoutKeyStoreNeedNoClientCertificate() {
    SecurityConfig config = fixture.clientProperties(props("ssl.enabled", "true",
        "ssl.truststore.path", fixture.trustStore().toString(), "securethrift.tls.protocols", "TLSv1.3,TLSv1.2"));
    assertEquals(ClientAuth.NONE, config.tls().clientAuth());
    assertTrue(config.tls().keyStore().isEmpty());
    assertEquals(List.of("TLSv1.3", "TLSv1.2"), config.tls().protocols(), "no Accumulo key: the library key decides");
  }

  @Test
  void clientPropertiesKerberosAuthLogsInFromTheKeytab() throws IOException {
    Path keytab = Files.writeString(dir.resolve("alice.keytab"), "keytab");
    SecurityConfig config = fixture.clientProperties(props("sasl.enabled", "true", "sasl.qop", "auth-conf",
        "sasl.kerberos.server.primary", "acc", "auth.type", "kerberos", "auth.principal", "alice@EXAMPLE.COM",
        "auth.token", keytab.toString()));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF), config.sasl().qop());
    assertEquals("acc", config.sasl().serverPrimary());
    assertEquals("alice@EXAMPLE.COM", config.sasl().kerberosPrincipal().orElseThrow());
    assertEquals(keytab, config.sasl().kerberosKeytab().orElseThrow());
  }

  @Test
  void saslWithoutAQopKeyKeepsAccumulosAuthRatherThanTheLibraryDefault() {
    assertEquals(List.of(QualityOfProtection.AUTH),
        fixture.clientConf(props("instance.rpc.sasl.enabled", "true")).sasl().qop());
    assertEquals(List.of(QualityOfProtection.AUTH),
        fixture.clientProperties(props("sasl.enabled", "true")).sasl().qop());
  }

  @Test
  void passwordAuthTokenIsNeverTakenForAKeytab() {
    SecurityConfig config = fixture.clientProperties(props("sasl.enabled", "true", "auth.type", "password",
        "auth.principal", "root", "auth.token", "root-password"));
    assertTrue(config.sasl().kerberosPrincipal().isEmpty());
    assertTrue(config.sasl().kerberosKeytab().isEmpty());
  }

  @Test
  void publicEntryPointsReadFiles() {
    Path conf = fixture.properties("client.conf", props("instance.rpc.sasl.enabled", "true"));
    assertEquals(SecurityMode.SASL, AccumuloSecurityConfig.fromClientConf(conf).mode());
    Path properties = fixture.properties("accumulo-client.properties", props("ssl.enabled", "true",
        "ssl.truststore.path", fixture.trustStore().toString()));
    assertEquals(SecurityMode.TLS, AccumuloSecurityConfig.fromClientProperties(properties).mode());
  }
}
