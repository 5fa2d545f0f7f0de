package io.securethrift.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.security.auth.Subject;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EmbeddedKdcTest {

  private String savedKrb5Conf;

  @BeforeEach
  void saveProperty() {
    savedKrb5Conf = System.getProperty(Krb5ConfProperty.NAME);
  }

  @AfterEach
  void restoreProperty() {
    if (savedKrb5Conf == null) {
      System.clearProperty(Krb5ConfProperty.NAME);
    } else {
      System.setProperty(Krb5ConfProperty.NAME, savedKrb5Conf);
    }
  }

  @Test
  void principalLogsInWithItsKeytab() throws Exception {
    long begin = System.nanoTime();
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      Duration startup = Duration.ofNanos(System.nanoTime() - begin);
      System.out.printf(
          "EmbeddedKdc started in %d ms on port %d%n", startup.toMillis(), kdc.port());

      KerberosIdentity client = kdc.principal("client");
      assertEquals("client@EXAMPLE.COM", client.principal());
      assertTrue(Files.size(client.keytab()) > 0);
      assertEquals(client.keytab(), kdc.keytab("client"));
      assertEquals(client, kdc.principal("client@EXAMPLE.COM"));

      Subject subject = KerberosLogin.login(client);

      KerberosTicket tgt = onlyTicket(subject);
      assertEquals("client@EXAMPLE.COM", tgt.getClient().getName());
      assertEquals("krbtgt/EXAMPLE.COM@EXAMPLE.COM", tgt.getServer().getName());
    }
  }

  /**
   * Logins that do not ask the JDK to re-read krb5.conf (securethrift's own keytab logins) find each KDC started in
   * turn on its own port: starting one makes the JDK re-read the file.
   */
  @Test
  void aKdcStartedAfterAnotherIsFoundByLoginsWithoutRefreshKrb5Config() throws Exception {
    int firstPort;
    try (EmbeddedKdc first = EmbeddedKdc.builder().start()) {
      firstPort = first.port();
      onlyTicket(loginWithoutRefresh(first.principal("client")));
    }
    try (EmbeddedKdc second = EmbeddedKdc.builder().start()) {
      assertFalse(second.port() == firstPort, "the second KDC took the first one's port");
      KerberosTicket tgt = onlyTicket(loginWithoutRefresh(second.principal("client")));
      assertEquals("client@EXAMPLE.COM", tgt.getClient().getName());
    }
  }

  private static Subject loginWithoutRefresh(KerberosIdentity identity) throws LoginException {
    LoginContext context = new LoginContext("no-refresh", new Subject(), callbacks -> {
      throw new UnsupportedCallbackException(callbacks[0]);
    }, new Krb5LoginConfiguration(Map.of("useKeyTab", "true", "keyTab", identity.keytab().toString(),
        "principal", identity.principal(), "doNotPrompt", "true", "isInitiator", "true")));
    context.login();
    return context.getSubject();
  }

  @Test
  void writesKrb5ConfForTcpOnlyAesWithoutDns() throws Exception {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().realm("TEST.REALM").start()) {
      String conf = Files.readString(kdc.krb5Conf());
      assertTrue(kdc.port() > 0);
      assertTrue(conf.contains("udp_preference_limit = 1"), conf);
      assertTrue(conf.contains("default_realm = TEST.REALM"), conf);
      assertTrue(conf.contains("dns_lookup_kdc = false"), conf);
      assertTrue(conf.contains("rdns = false"), conf);
      assertTrue(conf.contains("aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96"), conf);
      assertTrue(conf.contains("kdc = localhost:" + kdc.port()), conf);
      assertEquals(kdc.krb5Conf().toString(), System.getProperty(Krb5ConfProperty.NAME));
    }
  }

  @Test
  void closeRestoresPreviousKrb5ConfAndDeletesWorkDir() {
    System.setProperty(Krb5ConfProperty.NAME, "/etc/previous-krb5.conf");
    EmbeddedKdc kdc = EmbeddedKdc.builder().start();
    Path workDir = kdc.workDir();
    kdc.principal("someone");
    kdc.close();

    assertEquals("/etc/previous-krb5.conf", System.getProperty(Krb5ConfProperty.NAME));
    assertFalse(Files.exists(workDir));
    kdc.close();
  }

  @Test
  void closeClearsKrb5ConfWhenNoneWasSet() {
    System.clearProperty(Krb5ConfProperty.NAME);
    EmbeddedKdc.builder().start().close();

    assertNull(System.getProperty(Krb5ConfProperty.NAME));
  }

  @Test
  void onlyOneKdcRunsAtATime() {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> EmbeddedKdc.builder().start());
      assertTrue(e.getMessage().contains("JVM-wide"), e.getMessage());
      assertEquals(kdc.krb5Conf().toString(), System.getProperty(Krb5ConfProperty.NAME));
    }
  }

  @Test
  void passwordPrincipalAcceptsItsPasswordAndRejectsAnother() throws Exception {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      KerberosIdentity alice = kdc.principalWithPassword("alice", "correct horse".toCharArray());

      Subject subject =
          KerberosLogin.loginWithPassword(alice.principal(), "correct horse".toCharArray());
      assertEquals("alice@EXAMPLE.COM", onlyTicket(subject).getClient().getName());
      assertEquals(alice.principal(), onlyTicket(KerberosLogin.login(alice)).getClient().getName());

      assertThrows(
          LoginException.class,
          () -> KerberosLogin.loginWithPassword(alice.principal(), "wrong".toCharArray()));
      assertThrows(
          IllegalStateException.class,
          () -> kdc.principalWithPassword("alice", "again".toCharArray()));
    }
  }

  @Test
  void deletedPrincipalCannotLogIn() throws Exception {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      KerberosIdentity gone = kdc.principal("gone");
      KerberosLogin.login(gone);

      kdc.deletePrincipal("gone");

      assertTrue(Files.exists(gone.keytab()));
      assertThrows(LoginException.class, () -> KerberosLogin.login(gone));
      assertThrows(IllegalArgumentException.class, () -> kdc.keytab("gone"));
    }
  }

  @Test
  void stoppedKdcRefusesLoginsAndKeepsKeytabsAndConfigurationUntilClosed() throws Exception {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      KerberosIdentity client = kdc.principal("client");
      Subject before = KerberosLogin.login(client);

      kdc.stop();
      kdc.stop();

      assertThrows(LoginException.class, () -> KerberosLogin.login(client));
      assertTrue(Files.exists(client.keytab()));
      assertEquals(kdc.krb5Conf().toString(), System.getProperty(Krb5ConfProperty.NAME));
      assertTrue(Files.readString(kdc.krb5Conf()).contains("default_realm = EXAMPLE.COM"));
      assertTrue(onlyTicket(before).isCurrent());
    }
  }

  @Test
  void restartedKdcLogsInTheKeytabsExportedBeforeTheOutage() throws Exception {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      KerberosIdentity client = kdc.principal("returning");
      kdc.restart();
      kdc.stop();
      assertThrows(LoginException.class, () -> KerberosLogin.login(client));

      kdc.restart();

      assertTrue(onlyTicket(KerberosLogin.login(client)).isCurrent());
      assertTrue(Files.readString(kdc.krb5Conf()).contains(":" + kdc.port()));
    }
  }

  @Test
  void shortLivedTicketsAreRenewable() throws Exception {
    try (EmbeddedKdc kdc =
        EmbeddedKdc.builder()
            .ticketLifetime(Duration.ofSeconds(30))
            .maximumRenewableLifetime(Duration.ofMinutes(2))
            .clockSkew(Duration.ofSeconds(5))
            .start()) {
      KerberosTicket tgt = onlyTicket(KerberosLogin.login(kdc.principal("shortlived")));
      long lifetime = tgt.getEndTime().getTime() - tgt.getStartTime().getTime();
      long renewable = tgt.getRenewTill().getTime() - tgt.getStartTime().getTime();

      assertTrue(lifetime <= 30_000 && lifetime >= 29_000, "lifetime ms " + lifetime);
      assertTrue(tgt.isRenewable());
      assertTrue(renewable <= 120_000 && renewable > 30_000, "renewable ms " + renewable);

      tgt.refresh();
      assertTrue(tgt.isCurrent());
    }
  }

  @Test
  void rejectsPrincipalOfAnotherRealm() {
    try (EmbeddedKdc kdc = EmbeddedKdc.builder().start()) {
      assertThrows(IllegalArgumentException.class, () -> kdc.principal("bob@OTHER.REALM"));
      assertThrows(IllegalArgumentException.class, () -> kdc.keytab("never-created"));
    }
  }

  static KerberosTicket onlyTicket(Subject subject) {
    Set<KerberosTicket> tickets = subject.getPrivateCredentials(KerberosTicket.class);
    assertEquals(1, tickets.size(), tickets.toString());
    return tickets.iterator().next();
  }
}
