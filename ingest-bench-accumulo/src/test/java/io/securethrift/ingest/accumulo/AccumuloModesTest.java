package io.securethrift.ingest.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.DropInSecurityFile;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accumulo backend's modes: which existing client file runs which mode, and the site, client and JVM properties a
 * MiniAccumuloCluster is configured with (the configuration only: no cluster starts, and no KDC for these modes).
 */
class AccumuloModesTest {
  @TempDir
  Path dir;

  @Test
  void modesAreAccumulosPublishedLevelsAndTlsIsOnTheBackendsEngine() {
    assertEquals(List.of("none", "tls-jsse", "tls-conscrypt", "sasl-auth", "sasl-auth-int", "sasl-auth-conf",
        "sasl-auth-conf-provider"), AccumuloModes.MODES.names());
    assertEquals("tls-conscrypt", mode("ssl").name(), "Accumulo's spelling, on the backend's default engine");
    assertTrue(AccumuloModes.saslProvider(mode("sasl-auth-conf-provider")));
    assertFalse(AccumuloModes.saslProvider(mode("sasl-auth-conf")));
    assertFalse(AccumuloModes.saslProvider(mode("tls-conscrypt")));
  }

  @Test
  void aClientFileOfAnotherSecurityModeIsAMismatch() {
    assertEquals(Optional.of("the client file is none, mode sasl-auth needs sasl"),
        AccumuloModes.mismatch(mode("sasl-auth"), file(SecurityMode.NONE)));
    assertEquals(Optional.of("the client file is sasl, mode tls-jsse needs tls"),
        AccumuloModes.mismatch(mode("tls-jsse"), file(SecurityMode.SASL, QualityOfProtection.AUTH)));
    assertEquals(Optional.of("the client file is tls, mode none needs none"),
        AccumuloModes.mismatch(mode("none"), file(SecurityMode.TLS)));
  }

  @Test
  void aSaslClientFileMustOfferExactlyTheModesQualityOfProtection() {
    assertEquals(Optional.empty(), AccumuloModes.mismatch(mode("sasl-auth-int"),
        file(SecurityMode.SASL, QualityOfProtection.AUTH_INT)));
    assertEquals(Optional.empty(), AccumuloModes.mismatch(mode("sasl-auth-conf-provider"),
        file(SecurityMode.SASL, QualityOfProtection.AUTH_CONF)), "the provider mode is auth-conf as well");
    assertEquals(Optional.of("the client file's sasl.qop is [auth], mode sasl-auth-conf needs auth-conf"),
        AccumuloModes.mismatch(mode("sasl-auth-conf"), file(SecurityMode.SASL, QualityOfProtection.AUTH)));
    assertEquals(Optional.of("the client file's sasl.qop is [auth-conf, auth], mode sasl-auth needs auth"),
        AccumuloModes.mismatch(mode("sasl-auth"), file(SecurityMode.SASL, QualityOfProtection.AUTH_CONF,
            QualityOfProtection.AUTH)), "a list that would negotiate another level is refused");
  }

  @Test
  void tlsAndNoneClientFilesMatchWhateverTheirOtherSettings() {
    assertEquals(Optional.empty(), AccumuloModes.mismatch(mode("none"), file(SecurityMode.NONE)));
    assertEquals(Optional.empty(), AccumuloModes.mismatch(mode("tls-conscrypt"), file(SecurityMode.TLS)),
        "the engine is the servers' choice, not the client file's");
  }

  @Test
  void noneLeavesTheConfigurationAsItWas() throws Exception {
    MiniAccumuloConfigImpl config = config();
    Map<String, String> site = Map.copyOf(config.getSiteConfig());
    assertEquals(Optional.empty(), AccumuloModes.configure(mode("none"), config, null, dir),
        "no certificates, and no security material needed");
    assertEquals(site, config.getSiteConfig());
    assertFalse(config.getSystemProperties().containsKey("java.security.properties"));
    assertFalse(Files.exists(dir.resolve("drop-in.security")));
  }

  @Test
  void tlsConscryptConfiguresTwoWayTlsAndTheServersDropIn() throws Exception {
    MiniAccumuloConfigImpl config = config();
    try (BenchSecurity security = new BenchSecurity(dir)) {
      assertTrue(AccumuloModes.configure(mode("tls-conscrypt"), config, security, dir).isPresent());
    }
    assertEquals("true", config.getSiteConfig().get("instance.rpc.ssl.enabled"));
    assertEquals("true", config.getSiteConfig().get("instance.rpc.ssl.clientAuth"), "two-way, as Accumulo's run");
    assertEquals("true", config.getClientProps().get("ssl.enabled"));
    Path dropIn = dir.resolve("drop-in.security");
    assertEquals(dropIn.toString(), config.getSystemProperties().get("java.security.properties"));
    assertEquals(DropInSecurityFile.text(List.of("conscrypt")), Files.readString(dropIn, StandardCharsets.UTF_8));
  }

  private static BenchMode mode(String name) {
    return AccumuloModes.MODES.parse("--modes", name);
  }

  private static SecurityConfig file(SecurityMode mode, QualityOfProtection... qop) {
    SecurityConfig.Builder b = SecurityConfig.builder().mode(mode);
    return (qop.length == 0 ? b : b.qop(qop)).build();
  }

  private MiniAccumuloConfigImpl config() {
    return new MiniAccumuloConfigImpl(dir.resolve("mac").toFile(), "secret");
  }
}
