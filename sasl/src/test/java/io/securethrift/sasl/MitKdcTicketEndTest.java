package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.audit.CloseCause;
import io.securethrift.core.internal.SharedAccess;
import io.securethrift.core.testing.Await;
import io.securethrift.core.testservice.EchoServer;
import io.securethrift.core.testservice.EchoService;
import io.securethrift.core.transport.ClientTransportFactory;
import io.securethrift.core.transport.SecuredTransport;
import io.securethrift.core.transport.ServerTransportFactory;
import io.securethrift.testkit.KerberosIdentity;
import io.securethrift.testkit.MitKdc;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code securethrift.server.kerberos.close.at.ticket.end} against tickets MIT's KDC issues, sealed with each service
 * key type a realm may have: RFC 8009's, which Kerby's KDC cannot issue and {@link AesSha2Decryption} reads, and RFC
 * 3962's. A securethrift client and server authenticate, a call goes through, and the server closes the idle
 * connection when the ticket of a few seconds ends: it read that end from the MIT-issued ticket. The enctype of each
 * ticket is read back from the AP-REQ the client sent, through a relay.
 */
class MitKdcTicketEndTest {
  private static final Duration LIFETIME = Duration.ofSeconds(4);
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SERVICE = "accumulo/" + SaslConfigs.HOST;

  private static MitKdc kdc;
  private static KerberosIdentity client;

  @BeforeAll
  static void startKdc() {
    kdc = MitKdc.builder().ticketLifetime(LIFETIME).clockSkew(Duration.ofSeconds(1)).start();
    client = kdc.principal("client", MitKdc.ENCTYPES);
  }

  @AfterAll
  static void stopKdc() {
    if (kdc != null) {
      kdc.close();
    }
  }

  private static SecurityConfig.Builder base() {
    return SaslConfigs.base(SaslMechanism.GSSAPI, List.of(QualityOfProtection.AUTH_CONF));
  }

  private static SecurityConfig clientConfig() {
    // Renewal checks often enough for the login to follow tickets of a few seconds.
    return base().kerberosLogin(client.principal(), client.keytab()).renewalPeriod(Duration.ofMillis(100)).build();
  }

  /** A relay that keeps the AP-REQ of each Kerberos handshake the client sends through it. */
  private static RewritingRelay recordingApRequests(int serverPort, List<byte[]> apRequests) throws Exception {
    UnaryOperator<String> toServer = payload -> {
      byte[] apRequest = GssTokens.apRequest(payload.getBytes(StandardCharsets.ISO_8859_1));
      if (apRequest != null) {
        apRequests.add(apRequest);
      }
      return payload;
    };
    return RewritingRelay.to(serverPort, UnaryOperator.identity(), toServer);
  }

  private static List<Integer> ticketEtypes(List<byte[]> apRequests) throws ReflectiveOperationException {
    List<Integer> etypes = new ArrayList<>();
    for (byte[] apRequest : apRequests) {
      etypes.add(JdkKerberosCrypto.ticketEtype(apRequest));
    }
    return etypes;
  }

  private static ByteBuffer call(int id) {
    return ByteBuffer.wrap(("call " + id).getBytes(StandardCharsets.UTF_8));
  }

  /** When the service ticket of the client's current connection ends, as the client read it from its login. */
  private static Instant ticketEnd(SecuredTransport transport) {
    return SharedAccess.ticketEnd().of(transport.peerIdentity()).orElseThrow();
  }

  @ParameterizedTest(name = "service key {1} ({0})")
  @CsvSource({"20, aes256-cts-hmac-sha384-192", "19, aes128-cts-hmac-sha256-128", "18, aes256-cts-hmac-sha1-96"})
  void theServerClosesTheConnectionWhenItsMitTicketEnds(int etype, String enctype) throws Exception {
    KerberosIdentity service = kdc.principal(SERVICE, enctype);
    List<byte[]> apRequests = new CopyOnWriteArrayList<>();
    ServerTransportFactory factory = ServerTransportFactory.create(
        base().kerberosLogin(service.principal(), service.keytab()).build());
    try (EchoServer server = EchoServer.start(factory);
        RewritingRelay relay = recordingApRequests(server.port(), apRequests);
        ClientTransportFactory clients = ClientTransportFactory.create(clientConfig());
        SecuredTransport transport = clients.open(SaslConfigs.HOST, relay.port())) {
      EchoService.Client echo = EchoServer.client(transport);
      assertEquals(call(1), echo.echo(call(1)));
      assertEquals(List.of(etype), ticketEtypes(apRequests), "the enctype of the ticket MIT's KDC issued");
      Instant end = ticketEnd(transport);
      assertTrue(end.isBefore(Instant.now().plus(LIFETIME).plusSeconds(1)), "the KDC's short ticket: " + end);

      AtomicReference<Instant> closed = new AtomicReference<>();
      Await.until("the idle connection closing at its ticket's end", WAIT, () -> {
        if (factory.counters().closes(CloseCause.TICKET_EXPIRED) == 0) {
          return false;
        }
        closed.set(Instant.now());
        return true;
      });
      // The server's timer and the test share one clock; its read timeout is counted in whole milliseconds.
      assertTrue(!closed.get().isBefore(end.minusMillis(20)), "closed at " + closed + ", the ticket ended at " + end);
      assertTrue(closed.get().isBefore(end.plusSeconds(2)), "closed at " + closed + ", long after " + end);
      assertEquals(1, factory.counters().successes());

      // The next call goes to a new connection, on a fresh ticket of the same enctype.
      assertEquals(call(2), echo.echo(call(2)));
      assertTrue(ticketEnd(transport).isAfter(end), "the new connection's ticket must be a fresh one");
      assertEquals(List.of(etype, etype), ticketEtypes(apRequests));
      assertEquals(2, factory.counters().successes());
      assertEquals(0, factory.counters().failures());
    }
  }

  /**
   * A service whose keytab lacks the key its tickets are sealed with (the realm gave it an RFC 8009 key, its keytab
   * holds only the older type): the server refuses the client, saying which key it lacked.
   */
  @Test
  void aTicketSealedWithAKeyTheServiceKeytabLacksIsRefused(@TempDir Path dir) throws Exception {
    KerberosIdentity service = kdc.principal(SERVICE, "aes256-cts-hmac-sha384-192", "aes256-cts-hmac-sha1-96");
    KerberosPrincipal principal = new KerberosPrincipal(service.principal());
    KerberosKey older = null;
    for (KerberosKey key : KeyTab.getInstance(principal, service.keytab().toFile()).getKeys(principal)) {
      if (key.getKeyType() == 18) {
        older = key;
      }
    }
    assertTrue(older != null, "the service's keytab must hold its aes256-cts-hmac-sha1-96 key");
    Path keytab = JdkKerberosCrypto.keytab(dir.resolve("older-only.keytab"), service.principal(), 18,
        older.getEncoded(), older.getVersionNumber());

    List<byte[]> apRequests = new CopyOnWriteArrayList<>();
    ServerTransportFactory factory = ServerTransportFactory.create(
        base().kerberosLogin(service.principal(), keytab).build());
    try (EchoServer server = EchoServer.start(factory);
        RewritingRelay relay = recordingApRequests(server.port(), apRequests);
        ClientTransportFactory clients = ClientTransportFactory.create(clientConfig())) {
      TTransportException e = assertThrows(TTransportException.class,
          () -> clients.open(SaslConfigs.HOST, relay.port()));
      assertEquals(List.of(20), ticketEtypes(apRequests), "the enctype of the ticket MIT's KDC issued");
      // The server's reason reaches the client: the JDK found no key of the ticket's type in the service's keytab.
      assertTrue(e.getMessage().contains("Cannot find key of appropriate type to decrypt AP-REQ - AES256 CTS mode"
          + " with HMAC SHA384-192"), e.getMessage());
      Await.until("the server counting the refusal", WAIT, () -> factory.counters().failures() == 1);
      assertEquals(1, factory.counters().failures(AuthFailure.SASL_BAD), factory.counters().failuresByCause()
          .toString());
      assertEquals(0, factory.counters().successes());
    }
  }
}
