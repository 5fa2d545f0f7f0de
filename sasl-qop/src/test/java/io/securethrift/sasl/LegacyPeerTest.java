package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientTransportFactory;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecuredTransport;
import io.securethrift.core.ServerTransportFactory;
import io.securethrift.core.testing.RequiresGssapiSasl;
import io.securethrift.kdc.EmbeddedKdc;
import io.securethrift.kdc.KdcExtension;
import io.securethrift.kdc.KerberosIdentity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Our transports against libthrift 0.9.1 (Accumulo 1.7's) in a separate JVM, since 0.9.1 and 0.14+ cannot share a
 * class path. The peer is src/test/legacy/LegacyPeer.java, run by the JDK's source launcher on the jars the build
 * copied to target/legacy-thrift; it echoes length-prefixed messages at the transport level.
 */
@ExtendWith(KdcExtension.class)
@RequiresGssapiSasl
class LegacyPeerTest {
  private static final Path PEER = Path.of("src/test/legacy/LegacyPeer.java");
  private static final String CLASS_PATH = Path.of("target/legacy-thrift").toAbsolutePath() + "/*";
  private static final int LARGE = 200 * 1024;

  private static Process launch(EmbeddedKdc kdc, KerberosIdentity identity, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.security.krb5.conf=" + kdc.krb5Conf(), "-cp", CLASS_PATH, PEER.toString(),
        args[0], identity.principal(), identity.keytab().toString()));
    command.addAll(List.of(args).subList(1, args.length));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** Reads the child's output until a line starting with {@code prefix}; fails with everything it printed. */
  private static String awaitLine(BufferedReader out, String prefix) throws IOException {
    StringBuilder seen = new StringBuilder();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith(prefix)) {
        return line;
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("legacy peer exited before printing " + prefix + ":\n" + seen);
  }

  private static void echo(TTransport t, int size) throws Exception {
    byte[] sent = new byte[size];
    new Random(size).nextBytes(sent);
    t.write(new byte[] {(byte) (size >>> 24), (byte) (size >>> 16), (byte) (size >>> 8), (byte) size});
    t.write(sent);
    t.flush();
    byte[] header = new byte[4];
    t.readAll(header, 0, 4);
    int length = ((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8)
        | (header[3] & 0xff);
    byte[] got = new byte[length];
    t.readAll(got, 0, length);
    assertArrayEquals(sent, got, "echo of " + size + " bytes");
  }

  @ParameterizedTest
  @EnumSource(QualityOfProtection.class)
  void ourClientTalksToLibthrift091Server(QualityOfProtection qop, EmbeddedKdc kdc) throws Exception {
    assertTrue(Files.isDirectory(Path.of("target/legacy-thrift")), "run through Maven: it copies libthrift 0.9.1");
    Process peer = launch(kdc, SaslConfigs.service(kdc), "server", qop.token());
    try (BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        ClientTransportFactory factory = ClientTransportFactory.create(
            SaslConfigs.client(kdc, SaslMechanism.GSSAPI, qop))) {
      int port = Integer.parseInt(awaitLine(out, "PORT ").substring(5));
      try (SecuredTransport t = factory.open(SaslConfigs.HOST, port)) {
        assertEquals(qop, t.peerIdentity().qop().orElseThrow());
        echo(t, 1);
        echo(t, LARGE);
      }
    } finally {
      peer.destroyForcibly().waitFor();
    }
  }

  @Test
  void libthrift091ClientTalksToOurServer(EmbeddedKdc kdc) throws Exception {
    List<QualityOfProtection> all = List.of(QualityOfProtection.values());
    List<String> seen = new CopyOnWriteArrayList<>();
    try (ServerTransportFactory factory = ServerTransportFactory.create(SaslConfigs.base(SaslMechanism.GSSAPI, all)
            .kerberosLogin(SaslConfigs.service(kdc).principal(), SaslConfigs.service(kdc).keytab()).build());
        TServerSocket listening = factory.listen(new InetSocketAddress(SaslConfigs.HOST, 0))) {
      Thread server = new Thread(() -> serve(factory, listening, seen), "raw-echo-server");
      server.setDaemon(true);
      server.start();
      Process peer = launch(kdc, SaslConfigs.client(kdc), "client",
          String.valueOf(ServerTransportFactory.port(listening)), "auth", "auth-int", "auth-conf");
      try (BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (QualityOfProtection qop : all) {
          assertEquals("OK " + qop.token(), awaitLine(out, "OK "));
        }
        assertEquals(0, peer.waitFor());
      } finally {
        peer.destroyForcibly().waitFor();
      }
      assertEquals(List.of("client@" + kdc.realm() + " auth", "client@" + kdc.realm() + " auth-int",
          "client@" + kdc.realm() + " auth-conf"), seen);
    }
  }

  /** Accepts connections one after another and echoes each until it closes. */
  private static void serve(ServerTransportFactory factory, TServerSocket listening, List<String> seen) {
    try {
      while (true) {
        TTransport accepted = listening.accept();
        try (SecuredTransport t = (SecuredTransport) factory.transportFactory().getTransport(accepted)) {
          seen.add(t.peerIdentity().principal().orElseThrow() + " " + t.peerIdentity().qop().orElseThrow());
          byte[] header = new byte[4];
          while (true) {
            t.readAll(header, 0, 4);
            int length = ((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8)
                | (header[3] & 0xff);
            byte[] payload = new byte[length];
            t.readAll(payload, 0, length);
            t.write(header);
            t.write(payload);
            t.flush();
          }
        } catch (Exception connectionOver) {
          // The peer closed this connection; wait for the next one.
        }
      }
    } catch (Exception listenerClosed) {
      // The test closed the listening socket.
    }
  }
}
