package io.securethrift.ingest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityConfig;
import io.securethrift.harness.BenchSecurity;
import io.securethrift.ingest.bench.FaultBench.Fault;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded backend's parts that need no worker JVM: the configuration file a worker reads (its store passwords
 * readable by this user alone), which modes a fault run skips and why, the backends the launcher finds, and the
 * progress line after each round.
 */
class EmbeddedPartsTest {
  @TempDir
  Path dir;

  @Test
  void aWorkersConfigurationReadsBackAsWrittenAndOnlyItsOwnerCanReadIt() throws Exception {
    try (BenchSecurity security = new BenchSecurity(dir)) {
      SecurityConfig config = security.config(EmbeddedBackend.MODES.parse("--modes", "tls-jsse"), true).build();
      Path file = EmbeddedBackend.writeConfig(dir.resolve("server.properties"), config);

      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      Properties read = new Properties();
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        read.load(r);
      }
      Map<String, String> properties = new HashMap<>();
      read.stringPropertyNames().forEach(k -> properties.put(k, read.getProperty(k)));
      assertEquals(config.toProperties(), properties);
      assertEquals(config.toProperties(), SecurityConfig.fromProperties(properties).toProperties());
      assertTrue(properties.values().stream().anyMatch(v -> v.equals(new String(security.storePassword().chars()))),
          "the store password is in it: hence the permissions");

      assertThrows(FileAlreadyExistsException.class, () -> EmbeddedBackend.writeConfig(file, config),
          "an existing file (perhaps readable by others) is never reused");
    }
  }

  @Test
  void faultRunsSkipTheModesWhoseClientRunsInTheLauncherAndTlsOnTheModesWithoutTls() {
    EmbeddedFaults faults = new EmbeddedFaults();
    for (String mode : List.of("sasl-auth-conf-provider", "sasl-auth-libthrift")) {
      assertEquals(Optional.of("its client runs in the launcher JVM, on securethrift's retrying transports"),
          faults.notApplicable(mode, Fault.RESTART), mode);
    }
    for (String mode : List.of("none", "tls-jsse", "tls-conscrypt", "sasl-auth", "sasl-auth-conf-gcm",
        "sasl-over-tls")) {
      for (Fault fault : Fault.values()) {
        boolean tlsOnElsewhere = fault == Fault.TLS_ON && !mode.startsWith("tls-");
        assertEquals(tlsOnElsewhere, faults.notApplicable(mode, fault).isPresent(), mode + " " + fault);
      }
    }
    assertEquals(Optional.of("tls-on moves plaintext to a mode's mutual TLS, and mode sasl-over-tls is not a TLS mode"
        + " (tls-on runs in tls-jsse, tls-conscrypt and tls-openssl)"),
        faults.notApplicable("sasl-over-tls", Fault.TLS_ON));
    assertTrue(EmbeddedFaults.READ_TIMEOUT.compareTo(FaultBench.STALL) < 0, "the net run's stall outlasts a read");
    assertEquals(EmbeddedFaults.SHORT_TICKETS, faults.shortTickets());
  }

  @Test
  void theEmbeddedBackendIsFoundWithItsModesAndAnUnknownOneFallsBackToNone() {
    assertEquals("embedded", IngestBenchmark.backend("embedded").name());
    assertEquals(EmbeddedBackend.MODES.names(), IngestBenchmark.modesOf("embedded"));
    assertEquals("none", IngestBenchmark.modesOf("embedded").get(0), "the first mode is the baseline");
    assertEquals(List.of("none"), IngestBenchmark.modesOf("no-such-backend"));
    assertTrue(new EmbeddedBackend().faults().isPresent());
  }
}
