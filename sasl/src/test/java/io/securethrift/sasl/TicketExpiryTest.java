package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.testing.Await;
import io.securethrift.testkit.EmbeddedKdc;
import io.securethrift.testkit.KdcExtension;
import io.securethrift.testkit.KerberosIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Keytab logins whose tickets expire: re-login when possible, a clear error naming principal and realm when not. */
class TicketExpiryTest {
  @RegisterExtension
  static final KdcExtension KDC = KdcExtension.builder().ticketLifetime(Duration.ofSeconds(2))
      .clockSkew(Duration.ofSeconds(1)).build();

  /** Waits until the ticket's end time has passed. */
  private static void awaitExpiry(KerberosTicket ticket) {
    Await.until("expiry of the ticket ending " + ticket.getEndTime(), Duration.ofSeconds(30),
        () -> !ticket.isCurrent());
  }

  @Test
  void expiredTicketIsReplacedByAFreshLogin(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity client = kdc.principal("renewed");
    try (KeytabLogin login = KeytabLogin.initiator(client.principal(), client.keytab(), Duration.ofHours(1))) {
      Subject first = login.subjectForConnection();
      awaitExpiry(KeytabLogin.ticketGrantingTicket(first));
      Subject second = login.subjectForConnection();
      assertNotSame(first, second);
      assertTrue(KeytabLogin.ticketGrantingTicket(second).isCurrent());
    }
  }

  @Test
  void clientConnectionsThatFindTheTicketExpiredShareOneRelogin(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity client = kdc.principal("crowd");
    try (KeytabLogin login = KeytabLogin.initiator(client.principal(), client.keytab(), Duration.ofHours(1))) {
      awaitExpiry(KeytabLogin.ticketGrantingTicket(login.subject()));
      ExecutorService connections = Executors.newFixedThreadPool(4);
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Subject>> subjects = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          subjects.add(connections.submit(() -> {
            go.await();
            return login.subjectForConnection();
          }));
        }
        go.countDown();
        Set<Subject> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Future<Subject> s : subjects) {
          distinct.add(s.get(30, TimeUnit.SECONDS));
        }
        assertEquals(1, distinct.size(), "every connection must get the one fresh login");
        assertTrue(KeytabLogin.ticketGrantingTicket(distinct.iterator().next()).isCurrent());
      } finally {
        connections.shutdownNow();
      }
    }
  }

  @Test
  void backgroundRenewalLogsInAgainBeforeTheTicketExpires(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity client = kdc.principal("renewing");
    try (KeytabLogin login = KeytabLogin.initiator(client.principal(), client.keytab(), Duration.ofMillis(100))) {
      Subject first = login.subject();
      KerberosTicket tgt = KeytabLogin.ticketGrantingTicket(first);
      awaitExpiry(tgt);
      assertNotSame(first, login.subject(), "the renewal thread must have logged in again past 80 % of the lifetime");
      assertTrue(KeytabLogin.ticketGrantingTicket(login.subject()).getStartTime().before(tgt.getEndTime()));
    }
  }

  @Test
  void expiredTicketWhoseReloginFailsNamesPrincipalAndRealm(EmbeddedKdc kdc) throws Exception {
    KerberosIdentity client = kdc.principal("leaver");
    try (KeytabLogin login = KeytabLogin.initiator(client.principal(), client.keytab(), Duration.ofHours(1))) {
      KerberosTicket tgt = KeytabLogin.ticketGrantingTicket(login.subjectForConnection());
      kdc.deletePrincipal("leaver");
      awaitExpiry(tgt);
      KerberosLoginException e = assertThrows(KerberosLoginException.class, login::subjectForConnection);
      assertTrue(e.getMessage().startsWith("Kerberos ticket of leaver@" + kdc.realm() + " (realm " + kdc.realm()
          + ") expired at " + tgt.getEndTime().toInstant() + " and the re-login failed: Kerberos login of leaver@"),
          e.getMessage());
      assertTrue(e.getMessage().contains("Client not found in Kerberos database"), e.getMessage());
    }
  }
}
