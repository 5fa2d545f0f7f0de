package io.securethrift.accumulo;

import static io.securethrift.accumulo.Stores.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.SecurityMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Accumulo's files read through core's {@link SecurityConfigFiles}, which finds the reader with ServiceLoader. */
class ConfigFileReaderTest {
  private static final String SETTING = "--config";
  @TempDir Path dir;
  private ConfigFixture fixture;

  @BeforeEach
  void files() {
    fixture = new ConfigFixture(dir, "server");
  }

  @Test
  void siteXmlIsReadByName() {
    SecurityConfig config = read(fixture.siteXml(props("instance.rpc.sasl.enabled", "true",
        "rpc.sasl.qop", "auth-conf")));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF), config.sasl().qop());
  }

  @Test
  void clientConfIsReadByName() {
    SecurityConfig config = read(fixture.properties("client.conf", props("instance.rpc.ssl.enabled", "true",
        "rpc.javax.net.ssl.trustStore", fixture.trustStore().toString(), "rpc.ssl.client.protocol", "TLSv1.3")));
    assertEquals(SecurityMode.TLS, config.mode());
    assertEquals(List.of("TLSv1.3"), config.tls().protocols());
    assertTrue(config.tls().keyStore().isEmpty(), "a client file loads no key store without client auth");
  }

  @Test
  void accumuloPropertiesIsReadByNameWithAccumuloDefaults() {
    SecurityConfig config = read(fixture.properties("accumulo.properties", props("instance.volumes", "file:///a")));
    assertEquals(SecurityMode.NONE, config.mode());
  }

  @Test
  void clientPropertiesIsReadByName() {
    SecurityConfig config = read(fixture.properties("accumulo-client.properties", props("ssl.enabled", "true",
        "ssl.truststore.path", fixture.trustStore().toString())));
    assertEquals(SecurityMode.TLS, config.mode());
    assertEquals(List.of("TLSv1.2"), config.tls().protocols(), "Accumulo 2.x clients use TLSv1.2");
  }

  @Test
  void otherNameWithClientKeysReadsAsAccumulo2Client() {
    SecurityConfig config = read(fixture.properties("prod.properties", props("instance.name", "prod",
        "sasl.enabled", "true", "sasl.qop", "auth-int", "sasl.kerberos.server.primary", "acc")));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(QualityOfProtection.AUTH_INT), config.sasl().qop());
    assertEquals("acc", config.sasl().serverPrimary());
    assertTrue(config.sasl().canonicalizeHostName(), "Accumulo's rule, not core's default");
  }

  @Test
  void otherNameWithInstanceNameReadsAsAccumulo1Client() {
    SecurityConfig config = read(fixture.properties("legacy.conf", props("instance.name", "old",
        "instance.zookeeper.host", "zk1:2181", "instance.rpc.sasl.enabled", "true", "kerberos.server.primary",
        "acc17")));
    assertEquals("acc17", config.sasl().serverPrimary(), "only 1.x client files read kerberos.server.primary");
  }

  @Test
  void otherNameWithSiteKeysReadsAsAccumulo2Site() {
    SecurityConfig config = read(fixture.properties("node.properties", props("instance.zookeeper.host", "zk1:2181",
        "instance.rpc.sasl.enabled", "true", "rpc.sasl.qop", "auth-conf")));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF), config.sasl().qop());
  }

  @Test
  void accumuloRulesApplyToFilesFoundByContent() {
    Path file = fixture.properties("node.properties", props("instance.rpc.sasl.enabled", "true",
        "rpc.sasl.qop", "AUTH"));
    ConfigException e = assertThrows(ConfigException.class, () -> read(file));
    assertEquals("rpc.sasl.qop", e.key());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void fileOfSecurethriftKeysOnlyStaysWithCoresReader() {
    SecurityConfig config = read(fixture.properties("securethrift.properties", props("securethrift.mode", "sasl",
        "securethrift.sasl.qop", "auth-conf,auth-int")));
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(List.of(QualityOfProtection.AUTH_CONF, QualityOfProtection.AUTH_INT), config.sasl().qop());
    assertFalse(config.sasl().canonicalizeHostName(), "core's default, untouched by Accumulo's rules");
  }

  @Test
  void missingAccumuloFileIsReportedUnderTheSetting() {
    ConfigException e = assertThrows(ConfigException.class, () -> read(dir.resolve("accumulo.properties")));
    assertEquals(SETTING, e.key());
    assertTrue(e.getMessage().contains("accumulo.properties"), e.getMessage());
  }

  private static SecurityConfig read(Path file) {
    return SecurityConfigFiles.read(file, SETTING);
  }
}
