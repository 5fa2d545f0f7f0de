package io.securethrift.netty;

import static io.securethrift.netty.CountingEchoServer.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.audit.CloseCause;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.testservice.LogCapture;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code securethrift.server.kerberos.close.at.ticket.end} on both server models against a real KDC issuing tickets
 * of a few seconds: a Kerberos connection is closed between calls once its client's service ticket has ended,
 * audited {@code ticket-expired}, and the securethrift client moves to a new connection, on a fresh ticket, losing
 * and repeating no call.
 */
class TicketEndTest {
  private static final Duration LIFETIME = Duration.ofSeconds(4);
  private static final Duration WAIT = Duration.ofSeconds(30);

  @RegisterExtension
  static final KdcExtension KDC = KdcExtension.builder().ticketLifetime(LIFETIME).clockSkew(Duration.ofSeconds(1))
      .build();

  private static SecurityConfig.Builder base() {
    return SecurityConfig.builder().mode(SecurityMode.SASL).saslMechanism(SaslMechanism.GSSAPI)
        .qop(QualityOfProtection.AUTH_CONF);
  }

  private static SecurityConfig.Builder server(EmbeddedKdc kdc) {
    KerberosIdentity service = kdc.servicePrincipal("accumulo", "localhost");
    return base().kerberosLogin(service.principal(), service.keytab());
  }

  private static SecurityConfig client(EmbeddedKdc kdc) {
    KerberosIdentity client = kdc.principal("client");
    // Renewal checks often enough for the login to follow tickets of a few seconds.
    return base().kerberosLogin(client.principal(), client.keytab()).renewalPeriod(Duration.ofMillis(100)).build();
  }

  private static EchoService.Client client(SecuredTransport transport) {
    return new EchoService.Client(transport.protocol(new TCompactProtocol.Factory()));
  }

  /** When the service ticket of the client's current connection ends, as the client read it from its login. */
  private static Instant ticketEnd(SecuredTransport transport) {
    return SharedAccess.ticketEnd().of(transport.peerIdentity()).orElseThrow();
  }

  @ParameterizedTest
  @ValueSource(strings = {"threadpool", "nonblocking"})
  void anIdleConnectionClosesWhenItsTicketEndsAndTheNextCallGoesToANewOne(String model, EmbeddedKdc kdc)
      throws Exception {
    try (LogCapture log = LogCapture.start();
        CountingEchoServer server = new CountingEchoServer(model, server(kdc).build());
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc));
        SecuredTransport transport = clients.open("localhost", server.port)) {
      EchoService.Client client = client(transport);
      assertEquals(call(1), client.echo(call(1)));
      Instant end = ticketEnd(transport);
      assertTrue(end.isBefore(Instant.now().plus(LIFETIME).plusSeconds(1)), "the KDC's short ticket: " + end);
      // The server's timer and the test share one clock; its read timeout is counted in whole milliseconds.
      Await.until("the idle connection closing at its ticket's end", WAIT, () -> {
        long expired = server.counters.closes(CloseCause.TICKET_EXPIRED);
        assertTrue(expired == 0 || !Instant.now().isBefore(end.minusMillis(20)),
            "closed before the ticket ended at " + end);
        return expired == 1;
      });
      assertEquals(0, server.counters.closes(CloseCause.MAX_AGE));
      String line = log.awaitLines("event=close", 1, WAIT).get(0);
      assertTrue(line.matches(".* peer=/127\\.0\\.0\\.1:\\d+ mode=sasl principal=client@" + kdc.realm()
          + " .*cause=ticket-expired age_ms=\\d+"), line);
      assertEquals(List.of(), log.lines("").stream().filter(l -> l.contains("] WARN ") || l.contains("] ERROR "))
          .collect(Collectors.toList()), "closing at the ticket's end is no warning");
      // The client's next call finds its ticket ended and goes to a new connection, on a fresh ticket.
      assertEquals(call(2), client.echo(call(2)));
      assertTrue(ticketEnd(transport).isAfter(end), "the new connection's ticket must be a fresh one");
      assertEquals(2, server.counters.successes());
      assertEquals(1, server.echo.executions(1));
      assertEquals(1, server.echo.executions(2));
    }
  }

  /** Calls back to back across two ticket ends: each runs once and is answered, on at least three connections. */
  @ParameterizedTest
  @ValueSource(strings = {"threadpool", "nonblocking"})
  void theClientLosesAndRepeatsNoCallAcrossTicketEnds(String model, EmbeddedKdc kdc) throws Exception {
    try (CountingEchoServer server = new CountingEchoServer(model, server(kdc).build());
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc));
        SecuredTransport transport = clients.open("localhost", server.port)) {
      EchoService.Client client = client(transport);
      int calls = 0;
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (server.counters.successes() < 3 && System.nanoTime() - deadline < 0) {
        assertEquals(call(calls), client.echo(call(calls)));
        calls++;
      }
      assertTrue(server.counters.successes() >= 3, "calls must have spanned several tickets");
      for (int id = 0; id < calls; id++) {
        assertEquals(1, server.echo.executions(id), "call " + id);
      }
      assertEquals(calls, server.echo.executions.size());
      assertEquals(0, server.counters.failures(), "no handshake may fail on an ended ticket");
    }
  }

  /** With the setting false a Kerberos connection outlives its ticket, on both models. */
  @ParameterizedTest
  @ValueSource(strings = {"threadpool", "nonblocking"})
  void setToFalseTheServerKeepsConnectionsPastTheirTicket(String model, EmbeddedKdc kdc) throws Exception {
    try (CountingEchoServer server = new CountingEchoServer(model, server(kdc).closeAtTicketEnd(false).build());
        ClientTransportFactory clients = ClientTransportFactory.create(client(kdc));
        SecuredTransport transport = clients.open("localhost", server.port)) {
      assertEquals(call(1), client(transport).echo(call(1)));
      Instant end = ticketEnd(transport);
      Await.until("the connection's ticket having ended a while ago", WAIT,
          () -> Instant.now().isAfter(end.plusMillis(500)));
      assertEquals(0, server.counters.closes(CloseCause.TICKET_EXPIRED));
      assertEquals(1, server.counters.successes());
    }
  }

  @Test
  void closingAtTheTicketEndIsTheDefault() {
    assertTrue(SecurityConfig.builder().build().server().closeAtTicketEnd());
    assertTrue(!SecurityConfig.builder().set("securethrift.server.kerberos.close.at.ticket.end", "false").build()
        .server().closeAtTicketEnd());
  }
}
