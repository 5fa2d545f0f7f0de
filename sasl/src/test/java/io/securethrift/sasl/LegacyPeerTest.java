package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.testing.LegacyThriftPeer;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.net.InetSocketAddress;
import java.time.Duration;
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
 * class path. The peer is core's LegacyPeer.java, started by {@link LegacyThriftPeer}; it echoes
 * length-prefixed messages at the transport level.
 */
@ExtendWith(KdcExtension.class)
class LegacyPeerTest {
  private static final int LARGE = 200 * 1024;

  /** The peer's {@code command PRINCIPAL KEYTAB args...}, logged in as {@code identity}. */
  private static LegacyThriftPeer launch(EmbeddedKdc kdc, KerberosIdentity identity, String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, identity.principal(), identity.keytab().toString()));
    all.addAll(List.of(args));
    return LegacyThriftPeer.start(kdc.krb5Conf(), all);
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
    try (LegacyThriftPeer peer = launch(kdc, SaslConfigs.service(kdc), "server", qop.token());
        ClientTransportFactory factory = ClientTransportFactory.create(
            SaslConfigs.client(kdc, SaslMechanism.GSSAPI, qop))) {
      int port = Integer.parseInt(peer.awaitLine("PORT ").substring(5));
      try (SecuredTransport t = factory.open(SaslConfigs.HOST, port)) {
        assertEquals(qop, t.peerIdentity().qop().orElseThrow());
        echo(t, 1);
        echo(t, LARGE);
      }
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
      try (LegacyThriftPeer peer = launch(kdc, SaslConfigs.client(kdc), "client",
          String.valueOf(ServerTransportFactory.port(listening)), "auth", "auth-int", "auth-conf")) {
        for (QualityOfProtection qop : all) {
          assertEquals("OK " + qop.token(), peer.awaitLine("OK "));
        }
        assertEquals(0, peer.awaitExit(Duration.ofSeconds(30)));
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
