package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.harness.StoppingRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What securethrift's side of a cell is configured with in each mode (on the harness's real CA and KDC), and the
 * bounds peer-bench's settings put on the sizes and pairings a user gives.
 */
class PeerConfigTest {
  @TempDir
  static Path dir;
  private static BenchSecurity security;
  private static PeerMaterial material;

  @BeforeAll
  static void material() {
    security = new BenchSecurity(dir);
    material = PeerMaterial.create(security, true);
  }

  @AfterAll
  static void close() {
    if (security != null) {
      security.close();
    }
  }

  @Test
  void everySideHasRoomForTheLargestMessageAndTheSameReadTimeout() {
    for (String mode : PeerSettings.MODES) {
      for (boolean server : new boolean[] {true, false}) {
        SecurityConfig c = OurSide.config(PeerModes.MODES.parse("--modes", mode), material, server);
        assertEquals(PeerCell.MAX_MESSAGE, c.limits().maxFrameSize(), mode);
        assertEquals(Duration.ofMillis(PeerCell.TIMEOUT_MS), c.timeouts().read(), mode);
      }
    }
    assertEquals(SecurityMode.NONE, OurSide.config(PeerModes.MODES.parse("--modes", "none"), material, true).mode());
  }

  @Test
  void onlyTheConscryptClientIsHeldToTls12() {
    List<String> defaults = SecurityConfig.builder().mode(SecurityMode.TLS).build().tls().protocols();
    SecurityConfig conscrypt = OurSide.config(PeerModes.MODES.parse("--modes", "tls-conscrypt"), material, false);
    assertEquals(TlsEngine.CONSCRYPT, conscrypt.tls().engine());
    assertEquals(List.of("TLSv1.2"), conscrypt.tls().protocols());
    assertEquals(defaults, OurSide.config(PeerModes.MODES.parse("--modes", "tls-conscrypt"), material, true).tls()
        .protocols(), "the server offers what it offers by default");
    SecurityConfig jsse = OurSide.config(PeerModes.MODES.parse("--modes", "tls-jsse"), material, false);
    assertEquals(TlsEngine.JSSE, jsse.tls().engine());
    assertEquals(defaults, jsse.tls().protocols());
  }

  @Test
  void saslSidesLogInAsTheirOwnPrincipalWithTheModesProtection() {
    SecurityConfig server = OurSide.config(PeerModes.MODES.parse("--modes", "sasl-auth-int"), material, true);
    SecurityConfig client = OurSide.config(PeerModes.MODES.parse("--modes", "sasl-auth-int"), material, false);
    for (SecurityConfig c : List.of(server, client)) {
      assertEquals(SecurityMode.SASL, c.mode());
      assertEquals(SaslMechanism.GSSAPI, c.sasl().mechanism());
      assertEquals(List.of(QualityOfProtection.AUTH_INT), c.sasl().qop());
      assertEquals(SaslPrivacy.GSS, c.sasl().privacy(), "the JDK's GSS privacy, as libthrift has");
      assertEquals(PeerMaterial.PRIMARY, c.sasl().serverPrimary());
    }
    assertEquals(material.service().principal(), server.sasl().kerberosPrincipal().orElseThrow());
    assertEquals(material.service().keytab(), server.sasl().kerberosKeytab().orElseThrow());
    assertEquals(material.client().principal(), client.sasl().kerberosPrincipal().orElseThrow());
    assertTrue(material.service().principal().startsWith("accumulo/localhost"), material.service().principal());
  }

  @Test
  void sizesMustLeaveRoomForFramingInTheLargestMessage() {
    int largest = PeerCell.MAX_MESSAGE - 1024;
    assertEquals(List.of(1, largest), of(List.of(1, largest), List.of("our-server")).bulkSizes());
    ConfigException tooLarge = assertThrows(ConfigException.class, () -> of(List.of(largest + 1), List.of()));
    assertTrue(tooLarge.getMessage().contains("--bulk-sizes/--small-sizes")
        && tooLarge.getMessage().contains((largest + 1) + " bytes is not between 1 and " + largest),
        tooLarge.getMessage());
    ConfigException zero = assertThrows(ConfigException.class, () -> of(List.of(0), List.of()));
    assertTrue(zero.getMessage().contains("0 bytes is not between 1 and " + largest), zero.getMessage());
  }

  @Test
  void anUnknownPairingNamesItsOptionAndTheBaselineIsAddedOnce() {
    ConfigException e = assertThrows(ConfigException.class, () -> of(List.of(100), List.of("both")));
    assertTrue(e.getMessage().contains("--pairings") && e.getMessage().contains(
        "'both' is not a pairing; accepted: libthrift, securethrift, our-client, our-server"), e.getMessage());
    assertEquals(List.of(Pairing.LIBTHRIFT, Pairing.OUR_SERVER, Pairing.SECURETHRIFT),
        of(List.of(100), List.of("our-server", "libthrift", "securethrift", "our-server")).pairings());
  }

  private static PeerSettings of(List<Integer> bulk, List<String> pairings) {
    return PeerSettings.of(List.of("none"), pairings, bulk, List.of(100), false, 1.0, 1, 0.0, 1,
        StoppingRule.fixed(1), dir.resolve("out"));
  }
}
