package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientTransportFactory;
import io.securethrift.core.PeerIdentity;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecuredTransport;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testing.Await;
import io.securethrift.kdc.EmbeddedKdc;
import io.securethrift.kdc.KdcExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.security.auth.kerberos.KerberosTicket;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Kerberos server keeps accepting clients that hold valid service tickets after its own ticket-granting ticket has
 * expired while the KDC is down, refusing connections or never answering: accepting needs only the keys from its
 * keytab, and no connection waits for the renewal thread's re-login.
 */
class KdcOutageTest {
  // Long enough that the client's ticket, taken at half the server's lifetime, outlives all three phases on a loaded
  // machine: a 10 s lifetime left 4 s for the last phase, and a run beside other suites needed more.
  private static final Duration LIFETIME = Duration.ofSeconds(16);

  @RegisterExtension
  static final KdcExtension KDC = KdcExtension.builder().ticketLifetime(LIFETIME).clockSkew(Duration.ofSeconds(1))
      .build();

  @Test
  void serverWhoseTicketExpiredWhileTheKdcIsDownAcceptsCachedServiceTickets(EmbeddedKdc kdc) throws Exception {
    // A one-second renewal period makes the server try, and fail, to log in again during the outage.
    SecurityConfig serverConfig = SaslConfigs.server(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF)
        .toBuilder().renewalPeriod(Duration.ofSeconds(1)).build();
    try (SaslServerLayer server = (SaslServerLayer) new SaslLayerProvider().messageLayer(serverConfig, Role.SERVER, TestIdentities.issuer())
            .orElseThrow();
        ServerSocket listening = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
      KerberosTicket serverTicket = KeytabLogin.ticketGrantingTicket(server.acceptorSubject());
      // The client logs in later, so its own ticket and the service ticket it gets outlive the server's ticket.
      Instant clientLogin = serverTicket.getStartTime().toInstant().plus(LIFETIME.dividedBy(2));
      Await.until("half the server ticket's lifetime", LIFETIME, () -> Instant.now().isAfter(clientLogin));
      try (ClientTransportFactory clients = ClientTransportFactory.create(
          SaslConfigs.client(kdc, SaslMechanism.GSSAPI, QualityOfProtection.AUTH_CONF))) {
        assertAccepted(server, listening, clients);

        kdc.stop();
        Await.until("expiry of the server's ticket", LIFETIME,
            () -> !KeytabLogin.ticketGrantingTicket(server.acceptorSubject()).isCurrent());
        assertAccepted(server, listening, clients);

        // Now a KDC that takes requests and never answers: the renewal thread's re-login hangs in it.
        try (BlackHole hung = new BlackHole(kdc.port())) {
          Await.until("a re-login reaching the hung KDC", LIFETIME, () -> hung.swallowed() > 0);
          assertAccepted(server, listening, clients);
        }
      }
    }
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

    /** Closing the held connections ends the re-logins waiting on them. */
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
