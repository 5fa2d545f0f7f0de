package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.ConfigException;
import io.securethrift.core.PeerIdentity;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.TestIdentities;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class ImpersonationRulesTest {
  private static PeerIdentity caller(String principal, String address) throws Exception {
    return TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress(InetAddress.getByName(address), 4000))
        .principal(principal).sasl("GSSAPI", QualityOfProtection.AUTH).build();
  }

  private static final ImpersonationRules RULES = ImpersonationRules.parse(
      "proxy@EX.COM:alice@EX.COM,bob@EX.COM;gateway@EX.COM:*", "127.0.0.1,localhost;*");

  @Test
  void callersActAsThemselvesWithoutRules() throws Exception {
    ImpersonationRules.parse("", "").checkCaller(caller("alice@EX.COM", "10.0.0.1"), "alice@EX.COM");
  }

  @Test
  void proxiesImpersonateListedUsersFromListedHosts() throws Exception {
    RULES.checkCaller(caller("proxy@EX.COM", "127.0.0.1"), "bob@EX.COM");
    RULES.checkCaller(caller("proxy@EX.COM", "::ffff:127.0.0.1"), "alice@EX.COM");
    RULES.checkCaller(caller("gateway@EX.COM", "10.1.2.3"), "anyone@EX.COM");
  }

  @Test
  void refusalsSayWhy() throws Exception {
    SecurityException e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("alice@EX.COM", "127.0.0.1"), "bob@EX.COM"));
    assertEquals("alice@EX.COM may not act as bob@EX.COM: it is not a proxy in securethrift.sasl.impersonation.users",
        e.getMessage());
    e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("proxy@EX.COM", "127.0.0.1"), "carol@EX.COM"));
    assertEquals("proxy@EX.COM may not act as carol@EX.COM: it may impersonate only [alice@EX.COM, bob@EX.COM]",
        e.getMessage());
    e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("proxy@EX.COM", "192.0.2.7"), "bob@EX.COM"));
    assertEquals("proxy@EX.COM may not act as bob@EX.COM: it connects from /192.0.2.7:4000, not from one of"
        + " [127.0.0.1, localhost] (securethrift.sasl.impersonation.hosts)", e.getMessage());
  }

  @Test
  void refusalsQuoteTheRequestedPrincipalEscaped() throws Exception {
    SecurityException e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("alice@EX.COM", "127.0.0.1"), "bob@EX.COM\r\nINFO granted\u001b[0m"));
    assertEquals("alice@EX.COM may not act as bob@EX.COM\\r\\nINFO granted\\u001b[0m: it is not a proxy in"
        + " securethrift.sasl.impersonation.users", e.getMessage());
  }

  @Test
  void badSyntaxNamesTheKey() {
    ConfigException e = assertThrows(ConfigException.class, () -> ImpersonationRules.parse("proxy", "*"));
    assertEquals("securethrift.sasl.impersonation.users", e.key());
    e = assertThrows(ConfigException.class, () -> ImpersonationRules.parse("a:b;c:d", "*"));
    assertEquals("securethrift.sasl.impersonation.hosts: 1 entries, but securethrift.sasl.impersonation.users has 2;"
        + " give one host list (host1,host2 or *) per proxy, in the same order", e.getMessage());
    e = assertThrows(ConfigException.class, () -> ImpersonationRules.parse("a:b", "h1,,h2"));
    assertEquals("securethrift.sasl.impersonation.hosts", e.key());
  }
}
