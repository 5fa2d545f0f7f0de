package io.securethrift.bench.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.bench.EchoConnection;
import io.securethrift.bench.EchoFixture;
import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.identity.PeerIdentity;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The TLS benchmarks' set-up over real loopback connections: each engine's server serves each engine's client with
 * the CA's certificate verified, the versions asked for are the ones negotiated, and {@code none} is plain framing.
 */
class TlsBenchSetupTest {
  private static final ByteBuffer PAYLOAD = ByteBuffer.wrap(new byte[] {4, 5, 6, 7});
  private static TlsBenchSetup setup;

  @BeforeAll
  static void certificates() {
    setup = TlsBenchSetup.create();
  }

  @Test
  void everyEngineServesEveryEnginesClientOnTls13() throws Exception {
    for (String server : List.of("jsse", "conscrypt")) {
      for (String client : List.of("jsse", "conscrypt")) {
        PeerIdentity identity = echo(setup.config(server, true), setup.config(client, false));
        assertEquals(SecurityMode.TLS, identity.mode(), server + " serving " + client);
        assertEquals("TLSv1.3", identity.tlsProtocol().orElseThrow(), server + " serving " + client);
      }
    }
  }

  @Test
  void aClientLimitedToTls12GetsTls12() throws Exception {
    PeerIdentity identity = echo(setup.config("jsse", true), setup.config("conscrypt", false, List.of("TLSv1.2")));
    assertEquals("TLSv1.2", identity.tlsProtocol().orElseThrow());
  }

  @Test
  void versionsThatDoNotMeetFailTheConnection() throws Exception {
    try (EchoFixture fixture = EchoFixture.start(setup.config("jsse", true, List.of("TLSv1.3")),
        setup.config("jsse", false, List.of("TLSv1.2")))) {
      assertThrows(TTransportException.class, fixture::connect);
    }
  }

  @Test
  void noneIsPlainFramingWithTheSameFrameLimit() throws Exception {
    SecurityConfig server = setup.config("none", true);
    assertEquals(SecurityMode.NONE, server.mode());
    assertEquals(1 << 20, server.limits().maxFrameSize());
    assertEquals(1 << 20, setup.config("conscrypt", false).limits().maxFrameSize());
    assertEquals(TlsEngine.CONSCRYPT, setup.config("conscrypt", true).tls().engine());
    assertEquals(SecurityMode.NONE, echo(server, setup.config("none", false)).mode());
  }

  @Test
  void aClientOfAnotherCaIsRefused() throws Exception {
    TlsBenchSetup other = TlsBenchSetup.create();
    try (EchoFixture fixture = EchoFixture.start(setup.config("jsse", true), other.config("jsse", false))) {
      assertThrows(TTransportException.class, fixture::connect, "the server's certificate is not of its CA");
    }
  }

  @Test
  void anUnknownEngineNamesTheOption() {
    ConfigException e = assertThrows(ConfigException.class, () -> setup.config("boringssl", false));
    assertTrue(e.getMessage().contains("boringssl"), e.getMessage());
  }

  private static PeerIdentity echo(SecurityConfig server, SecurityConfig client) throws Exception {
    try (EchoFixture fixture = EchoFixture.start(server, client);
        EchoConnection connection = fixture.connect()) {
      assertTrue(fixture.port() > 0);
      assertEquals(PAYLOAD, connection.echo(PAYLOAD));
      assertEquals(4, PAYLOAD.remaining(), "the caller's buffer is left as it was");
      return connection.peerIdentity();
    }
  }
}
