package io.securethrift.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import io.securethrift.core.testing.LineRecord;
import io.securethrift.harness.BenchMode;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.testkit.KerberosIdentity;
import java.nio.file.Path;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer-bench cell in this JVM over real loopback connections: every pairing of the two libraries' clients and
 * servers answers the parent's commands in modes {@code none} and {@code tls-jsse}, its answers carry what the
 * figures are made of, and the material file a cell JVM reads is the one the parent wrote.
 */
class PeerCellTest {
  @TempDir
  static Path dir;
  private static BenchSecurity security;
  private static PeerMaterial material;

  @BeforeAll
  static void material() {
    security = new BenchSecurity(dir);
    material = PeerMaterial.create(security, false);
  }

  @AfterAll
  static void close() throws Exception {
    if (security != null) {
      security.close();
    }
  }

  @Test
  void everyPairingEchoesAndConnectsInPlainAndTlsModes() throws Exception {
    for (String name : List.of("none", "tls-jsse")) {
      BenchMode mode = PeerModes.MODES.parse("--modes", name);
      for (Pairing pairing : Pairing.values()) {
        String cellName = name + " " + pairing.label();
        try (PeerCell cell = new PeerCell(mode, pairing, material)) {
          LineRecord echo = cell.handle(PeerMetric.roundTrips(100).command(0.005));
          assertDone(echo, cellName);
          assertTrue(echo.getLong("nanos") >= 5_000_000, "at least the seconds asked for: " + echo);
          LineRecord bulk = cell.handle(PeerMetric.bulk(64 * 1024).command(0.005, true));
          assertDone(bulk, cellName);
          LineRecord connect = cell.handle(PeerMetric.CONNECTIONS.command(0.005));
          assertDone(connect, cellName);
        }
      }
    }
  }

  @Test
  void aTurnOnTheSameConnectionNeedsNoEarlierOne() throws Exception {
    try (PeerCell cell = new PeerCell(PeerModes.MODES.parse("--modes", "none"), Pairing.SECURETHRIFT, material)) {
      assertDone(cell.echo(1, 0.001, true), "reuse asked for, none open yet: one is opened");
      assertDone(cell.echo(1, 0.001, true), "the same connection");
      assertDone(cell.echo(2048, 0.001, false), "a fresh one");
    }
  }

  @Test
  void anUnknownCommandNamesTheTwoItKnows() throws Exception {
    try (PeerCell cell = new PeerCell(PeerModes.MODES.parse("--modes", "none"), Pairing.LIBTHRIFT, material)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> cell.handle(LineRecord.of("bulk").with("seconds", 1.0)));
      assertEquals("unknown command bulk; expected echo or connect", e.getMessage());
    }
  }

  @Test
  void onlyTheConscryptModeInstallsTheConscryptFirstProviderAndOnlyOnce() {
    assertNull(Security.getProvider(ConscryptFirstProvider.NAME), "no other test left it installed");
    try {
      PeerCell.prepareJvm(PeerModes.MODES.parse("--modes", "tls-jsse"));
      PeerCell.prepareJvm(PeerModes.MODES.parse("--modes", "sasl-auth"));
      assertNull(Security.getProvider(ConscryptFirstProvider.NAME));
      BenchMode conscrypt = PeerModes.MODES.parse("--modes", "tls-conscrypt");
      PeerCell.prepareJvm(conscrypt);
      PeerCell.prepareJvm(conscrypt);
      Provider[] providers = Security.getProviders();
      assertEquals(ConscryptFirstProvider.NAME, providers[0].getName(), "ahead of SunJSSE");
      assertEquals(1, Arrays.stream(providers).filter(p -> p.getName().equals(ConscryptFirstProvider.NAME)).count());
    } finally {
      Security.removeProvider(ConscryptFirstProvider.NAME);
    }
  }

  @Test
  void materialReadsBackAsWrittenWithAndWithoutKerberos() throws Exception {
    assertEquals(material, PeerMaterial.read(material.write(dir.resolve("plain.properties"))));
    assertNull(material.service());
    PeerMaterial kerberos = new PeerMaterial(material.keyStore(), material.trustStore(), material.password(),
        new KerberosIdentity("accumulo/localhost@EXAMPLE.COM", dir.resolve("service.keytab")),
        new KerberosIdentity("ingest@EXAMPLE.COM", dir.resolve("client.keytab")));
    PeerMaterial read = PeerMaterial.read(kerberos.write(dir.resolve("sasl.properties")));
    assertEquals(kerberos.service().principal(), read.service().principal());
    assertEquals(kerberos.service().keytab(), read.service().keytab());
    assertEquals(kerberos.client().principal(), read.client().principal());
    assertEquals(kerberos.client().keytab(), read.client().keytab());
    assertEquals(security.serverKeyStore(), read.keyStore());
    assertEquals(new String(security.storePassword().chars()), read.password());
  }

  private static void assertDone(LineRecord answer, String cell) {
    assertEquals(PeerCell.DONE, answer.kind(), cell);
    assertTrue(answer.getLong("ops") >= 1, cell + ": " + answer);
    assertTrue(answer.getLong("nanos") > 0 && answer.getLong("cpu") >= 0 && answer.getLong("jit") >= 0,
        cell + ": " + answer);
  }
}
