package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The launcher's handling of bad input: one line naming the setting, exit code 2, nothing started. */
class MainTest {
  @TempDir
  Path dir;

  private record Outcome(int exitCode, String err) {}

  private static Outcome run(String... args) {
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    return new Outcome(cli.execute(args), err.toString());
  }

  @Test
  void everyModuleCommandIsRegistered() {
    assertEquals(java.util.Set.of("ingest-bench", "ingest-server", "ingest-client", "tls-bench", "sasl-bench",
        "server-bench", "zk-bench", "peer-bench", "kdc", "certs"), Main.commandLine().getSubcommands().keySet());
  }

  @Test
  void unknownServerBenchModeStopsTheRunBeforeItStarts() {
    Outcome o = run("server-bench", "--quick", "--modes", "tls,tls13-jsse");
    assertEquals(2, o.exitCode(), o.err());
    assertEquals("securethrift server-bench: --modes: 'tls13-jsse' is not a mode server-bench runs; it runs none, tls,"
        + " sasl-auth, sasl-auth-conf", o.err().trim());
  }

  @Test
  void unknownServerBenchServerStopsTheRunBeforeItStarts() {
    Outcome o = run("server-bench", "--quick", "--servers", "nonblocking,netty");
    assertEquals(2, o.exitCode(), o.err());
    assertEquals("securethrift server-bench: --servers: 'netty' is not a server; one of nonblocking,"
        + " nonblocking-inline, threadpool-64, threadpool", o.err().trim());
  }

  @Test
  void unknownIngestModeStopsTheRunBeforeItStarts() {
    Outcome o = run("ingest-bench", "--modes", "none,tls13-openssl");
    assertEquals(2, o.exitCode(), o.err());
    assertEquals("securethrift ingest-bench: --modes: 'tls13-openssl' is not a mode the embedded backend runs; it runs"
        + " none, tls-jsse, tls-conscrypt, tls-openssl, sasl-auth, sasl-auth-int, sasl-auth-conf, sasl-auth-conf-gcm,"
        + " sasl-auth-conf-provider, sasl-auth-libthrift, sasl-over-tls",
        o.err().trim());
  }

  @Test
  void badValueInAConfigurationFileNamesTheKeyAndTheFile() throws Exception {
    Path config = Files.writeString(dir.resolve("server.properties"), "securethrift.mode=tls\n"
        + "securethrift.tls.keystore.path=" + dir.resolve("missing.p12") + "\n");
    Outcome o = run("ingest-server", "--config", config.toString(), "--port", "0");
    assertEquals(2, o.exitCode(), o.err());
    assertEquals("securethrift ingest-server: securethrift.tls.keystore.path: file " + dir.resolve("missing.p12")
        + " does not exist (in " + config + ")", o.err().trim());
  }

  @Test
  void missingKeytabNamesTheSetting() throws Exception {
    Path config = Files.writeString(dir.resolve("client.properties"), "securethrift.mode=sasl\n"
        + "securethrift.sasl.kerberos.principal=ingest@EXAMPLE.COM\n"
        + "securethrift.sasl.kerberos.keytab=" + dir.resolve("ingest.keytab") + "\n");
    Outcome o = run("ingest-client", "--config", config.toString(), "--host", "localhost", "--port", "1");
    assertEquals(2, o.exitCode(), o.err());
    assertEquals("securethrift ingest-client: securethrift.sasl.kerberos.keytab: file " + dir.resolve("ingest.keytab")
        + " does not exist (in " + config + ")", o.err().trim());
  }

  @Test
  void portInUseNamesThePortOption() throws Exception {
    Path config = Files.writeString(dir.resolve("plain.properties"), "securethrift.mode=none\n");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Outcome o = run("ingest-server", "--config", config.toString(), "--bind", "127.0.0.1", "--port",
          String.valueOf(taken.getLocalPort()));
      assertEquals(2, o.exitCode(), o.err());
      assertTrue(o.err().trim().equals("securethrift ingest-server: --port: " + taken.getLocalPort()
          + " is already in use on 127.0.0.1; stop what holds it or choose another port"), o.err());
    }
  }
}
