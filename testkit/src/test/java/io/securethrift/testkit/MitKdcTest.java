package io.securethrift.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.kerberos.KeyTab;
import javax.security.auth.login.LoginException;
import org.junit.jupiter.api.Test;

/** MIT's KDC as a fixture: keys of the enctypes asked for, logins with them, short tickets, and nothing left after. */
class MitKdcTest {

  @Test
  void principalsGetKeysOfTheirEnctypesAndLogInWithShortTickets() throws Exception {
    String before = System.getProperty(Krb5ConfProperty.NAME);
    Path workDir;
    int port;
    try (MitKdc kdc = MitKdc.builder().ticketLifetime(Duration.ofSeconds(30)).start()) {
      workDir = kdc.krb5Conf().getParent();
      port = kdc.port();
      assertEquals(kdc.krb5Conf().toString(), System.getProperty(Krb5ConfProperty.NAME));
      KerberosIdentity client = kdc.principal("client", "aes256-cts-hmac-sha384-192", "aes128-cts-hmac-sha256-128");
      assertEquals("client@EXAMPLE.COM", client.principal());
      assertEquals(Set.of(20, 19), keyTypes(client));

      Subject subject = KerberosLogin.login(client);
      KerberosTicket tgt = subject.getPrivateCredentials(KerberosTicket.class).iterator().next();
      assertEquals("krbtgt/EXAMPLE.COM@EXAMPLE.COM", tgt.getServer().getName());
      assertEquals(20, tgt.getSessionKeyType(), "the TGT's session key, of the client's strongest key type");
      long lifetime = tgt.getEndTime().getTime() - tgt.getStartTime().getTime();
      assertTrue(lifetime <= 30_000, "the realm's maximum ticket life: " + lifetime + " ms");

      // New keys of another type: a new keytab; the old one no longer logs in.
      KerberosIdentity rekeyed = kdc.principal("client", "aes256-cts-hmac-sha1-96");
      assertEquals(Set.of(18), keyTypes(rekeyed));
      KerberosLogin.login(rekeyed);
      assertThrows(LoginException.class, () -> KerberosLogin.login(client));
      assertTrue(kdc.log().stream().anyMatch(line -> line.contains("AS_REQ") && line.contains("ISSUE")),
          String.join("\n", kdc.log()));
    }
    assertEquals(before, System.getProperty(Krb5ConfProperty.NAME));
    assertFalse(Files.exists(workDir), "the KDC's directory must be removed");
    assertThrows(Exception.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close(),
        "the KDC must have stopped");
  }

  @Test
  void anEnctypeItDoesNotSupportIsRefusedByName() {
    try (MitKdc kdc = MitKdc.builder().start()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> kdc.principal("client", "des-cbc-crc"));
      assertTrue(e.getMessage().contains("des-cbc-crc"), e.getMessage());
    }
  }

  @Test
  void withoutTheProgramsPropertyStartingSaysHowToGetThem() {
    String programs = System.getProperty(MitKdc.PROGRAMS_PROPERTY);
    System.clearProperty(MitKdc.PROGRAMS_PROPERTY);
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> MitKdc.builder().start());
      assertTrue(e.getMessage().contains("scripts/mit-kdc"), e.getMessage());
      // Nothing was claimed: another KDC can start.
      EmbeddedKdc.builder().start().close();
    } finally {
      if (programs != null) {
        System.setProperty(MitKdc.PROGRAMS_PROPERTY, programs);
      }
    }
  }

  private static Set<Integer> keyTypes(KerberosIdentity identity) {
    KerberosPrincipal principal = new KerberosPrincipal(identity.principal());
    return List.of(KeyTab.getInstance(principal, identity.keytab().toFile()).getKeys(principal)).stream()
        .map(KerberosKey::getKeyType).collect(Collectors.toSet());
  }
}
