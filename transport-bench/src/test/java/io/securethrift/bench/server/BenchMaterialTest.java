package io.securethrift.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.harness.BenchMode;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The material a server-bench run shares with its server JVMs: what {@link BenchMaterial#create} writes, that a
 * server built from {@link BenchMaterial#load} of the directory serves the clients of the creating side in every
 * mode (real connections through {@link EchoFixture}), and that another run's material is refused.
 */
class BenchMaterialTest {
  private static final ByteBuffer HELLO = ByteBuffer.wrap(new byte[] {1, 2, 3});

  @TempDir
  Path dir;

  @Test
  void createWritesTheStoresThePemFilesAndASecretsFileOnlyItsOwnerReads() throws Exception {
    BenchMaterial material = BenchMaterial.create(dir);
    assertEquals(dir, material.dir());
    for (String file : List.of("server.p12", "server.crt", "server.key", "ca.crt", "secrets.properties")) {
      assertTrue(Files.size(dir.resolve(file)) > 0, file);
    }
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        dir.resolve("secrets.properties"))));
    String secrets = Files.readString(dir.resolve("secrets.properties"));
    assertTrue(secrets.contains("store.password=") && secrets.contains("token.id=")
        && secrets.contains("token.password="), secrets);
    assertEquals(dir.resolve("server.crt"), material.serverPem().certificateChain());
    assertEquals(dir.resolve("server.key"), material.serverPem().privateKey());
    assertTrue(Files.readString(material.serverPem().privateKey()).contains("PRIVATE KEY-----"),
        "an unencrypted PEM key, as s_server reads it");
  }

  @Test
  void createRefusesADirectoryThatHasARunsSecretsAlready() throws Exception {
    BenchMaterial.create(dir);
    assertThrows(FileAlreadyExistsException.class, () -> BenchMaterial.create(dir));
  }

  @Test
  void loadWithoutSecretsSaysWhere() {
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> BenchMaterial.load(dir));
    assertEquals("cannot read the benchmark's secrets in " + dir, e.getMessage());
  }

  @Test
  void aLoadedServerServesTheCreatorsClientsInEveryMode() throws Exception {
    BenchMaterial created = BenchMaterial.create(dir);
    BenchMaterial loaded = BenchMaterial.load(dir);
    assertEquals(List.of("none", "tls", "sasl-auth", "sasl-auth-conf"), ServerModes.MODES.names());
    for (String name : ServerModes.MODES.names()) {
      BenchMode mode = ServerModes.MODES.parse("mode", name);
      try (EchoFixture fixture = EchoFixture.start(loaded.server(mode, TlsEngine.JSSE, false),
          created.client(mode, TlsEngine.JSSE));
          EchoConnection connection = fixture.connect()) {
        assertEquals(HELLO, connection.echo(HELLO), name);
        PeerIdentity identity = connection.peerIdentity();
        assertEquals(mode.security(), identity.mode(), name);
        if (mode.sasl()) {
          assertEquals("DIGEST-MD5", identity.mechanism().orElseThrow(), name);
          assertEquals(mode.qop(), identity.qop().orElseThrow(), name);
        }
      }
    }
  }

  @Test
  void anotherRunsClientsAreRefused() throws Exception {
    BenchMaterial ours = BenchMaterial.create(Files.createDirectory(dir.resolve("ours")));
    BenchMaterial theirs = BenchMaterial.create(Files.createDirectory(dir.resolve("theirs")));
    for (String name : List.of("tls", "sasl-auth")) {
      BenchMode mode = ServerModes.MODES.parse("mode", name);
      try (EchoFixture fixture = EchoFixture.start(ours.server(mode, TlsEngine.JSSE, false),
          theirs.client(mode, TlsEngine.JSSE))) {
        assertThrows(TTransportException.class, fixture::connect, name + ": another CA, another token");
      }
    }
  }

  @Test
  void serversLiftTheConnectionLimitsAndClientsHaveDeadlines() throws Exception {
    BenchMaterial material = BenchMaterial.create(dir);
    SecurityConfig defaults = SecurityConfig.builder().build();
    SecurityConfig server = material.server(ServerModes.MODES.parse("mode", "sasl-auth"), TlsEngine.JSSE, false);
    assertEquals(1_000_000, server.server().maxConnections());
    assertEquals(1_000_000, server.server().maxConnectionsPerAddress());
    assertEquals(1_000_000, server.server().maxUnauthenticatedConnectionsPerAddress());
    assertEquals(defaults.server().maxUnauthenticatedConnections(), server.server().maxUnauthenticatedConnections(),
        "the flood measures the default unauthenticated limit");
    assertEquals(defaults.timeouts().handshake(), server.timeouts().handshake(), "and the default deadline");
    assertEquals(4 << 20, server.limits().maxFrameSize(), "room for the stall scenario's 1 MiB calls");

    SecurityConfig client = material.client(ServerModes.TLS, TlsEngine.CONSCRYPT);
    assertEquals(SecurityMode.TLS, client.mode());
    assertEquals(Duration.ofSeconds(20), client.timeouts().handshake());
    assertEquals(Duration.ofSeconds(60), client.timeouts().read());
    assertEquals(SecurityMode.NONE, material.client(ServerModes.MODES.parse("mode", "none"), TlsEngine.JSSE).mode());
  }
}
