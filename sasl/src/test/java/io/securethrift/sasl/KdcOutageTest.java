package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.kerberos.KeyTab;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Kerberos server logs in acceptor-only: its subject holds the keytab and no ticket-granting ticket, it never asks
 * the KDC, and so it starts, and accepts clients that hold valid service tickets, while the KDC is down, refusing
 * connections or never answering.
 */
class KdcOutageTest {
  @RegisterExtension
  static final KdcExtension KDC = KdcExtension.builder().build();

  @Test
  void acceptorLoginHoldsNoTicketAndAcceptsCachedServiceTicketsWhileTheKdcIsDownOrHung(EmbeddedKdc kdc)
      throws Exception {
    SecurityConfig serverConfig = SaslConfigs.server(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF);
    try (ServerSocket listening = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        ClientTransportFactory clients = ClientTransportFactory.create(
            SaslConfigs.client(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF))) {
      try (SaslServerLayer server = server(serverConfig)) {
        Subject subject = server.acceptorSubject();
        assertTrue(subject.getPrivateCredentials(KerberosTicket.class).isEmpty(),
            "an acceptor-only login holds no ticket: " + subject.getPrivateCredentials(KerberosTicket.class));
        assertNull(KeytabLogin.ticketGrantingTicket(subject));
        assertFalse(subject.getPrivateCredentials(KeyTab.class).isEmpty(), "the keys come from the keytab");
        String renewal = "securethrift-kerberos-renewal " + SaslConfigs.service(kdc).principal();
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals(renewal)),
            "an acceptor has nothing to renew");
        // The client's first connection gets its service ticket from the KDC; its login keeps it for the next ones.
        assertAccepted(server, listening, clients);
      }

      kdc.stop();
      // A server created now logs in without a KDC, and accepts the client's cached service ticket.
      try (SaslServerLayer server = server(serverConfig)) {
        assertAccepted(server, listening, clients);
      }
      // A KDC that takes requests and never answers would hang any login that asked it; this one is never asked.
      try (BlackHole hung = new BlackHole(kdc.port());
          SaslServerLayer server = server(serverConfig)) {
        assertAccepted(server, listening, clients);
        assertEquals(0, hung.swallowed(), "nothing asked the KDC");
      }
    }
  }

  private static SaslServerLayer server(SecurityConfig config) {
    return (SaslServerLayer) new SaslLayerProvider().messageLayer(config, Role.SERVER, TestIdentities.issuer())
        .orElseThrow();
  }

  /** Takes TCP connections on a port and never answers them, until closed. */
  private static final class BlackHole implements AutoCloseable {
    private final ServerSocket listening;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    BlackHole(int port) throws IOException {
      listening = new ServerSocket();
      listening.setReuseAddress(true);
      listening.bind(new InetSocketAddress(InetAddress.getByName(EmbeddedKdc.HOST), port));
      acceptor = new Thread(() -> {
        try {
          while (true) {
            held.add(listening.accept());
          }
        } catch (IOException closed) {
          // close() ended the loop.
        }
      }, "hung-kdc");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int swallowed() {
      return held.size();
    }

    /** Closing the held connections ends the logins waiting on them. */
    @Override
    public void close() throws IOException {
      listening.close();
      for (Socket s : held) {
        s.close();
      }
    }
  }

  /** Connects a client and checks the server layer authenticated it, the server half running on its own thread. */
  private static void assertAccepted(SaslServerLayer server, ServerSocket listening, ClientTransportFactory clients)
      throws Exception {
    CompletableFuture<String> principal = CompletableFuture.supplyAsync(() -> {
      try (Socket accepted = listening.accept()) {
        accepted.setSoTimeout(10_000);
        PeerIdentity stream = TestIdentities.builder(SecurityMode.SASL,
            (InetSocketAddress) accepted.getRemoteSocketAddress()).build();
        try (SecuredTransport transport = server.open(new TSocket(accepted), stream, null)) {
          return transport.peerIdentity().principal().orElseThrow();
        }
      } catch (Exception e) {
        throw new IllegalStateException("the server refused the client: " + e.getMessage(), e);
      }
    });
    try (SecuredTransport transport = clients.open(SaslConfigs.HOST, listening.getLocalPort())) {
      assertTrue(transport.isOpen());
    }
    assertEquals("client@" + KDC.kdc().realm(), principal.get(10, TimeUnit.SECONDS));
  }
}
