package io.securethrift.core.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.core.ConfigException;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class ImpersonationRulesTest {
  private static final String USERS = "securethrift.sasl.impersonation.users";
  private static final String HOSTS = "securethrift.sasl.impersonation.hosts";
  private static final String ACCUMULO_USERS = "instance.rpc.sasl.allowed.user.impersonation";
  private static final String ACCUMULO_HOSTS = "instance.rpc.sasl.allowed.host.impersonation";

  private static PeerIdentity caller(String principal, String address) throws Exception {
    return TestIdentities.builder(SecurityMode.SASL, new InetSocketAddress(InetAddress.getByName(address), 4000))
        .principal(principal).sasl("GSSAPI", QualityOfProtection.AUTH).build();
  }

  private static final ImpersonationRules RULES = ImpersonationRules.parse(
      "proxy@EX.COM:alice@EX.COM,bob@EX.COM;gateway@EX.COM:*", "127.0.0.1,localhost;*");

  /** Parsing {@code users} and {@code hosts} under Accumulo's keys fails with exactly {@code key: problem}. */
  private static void rejected(String key, String problem, String users, String hosts) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ImpersonationRules.parse(ACCUMULO_USERS, users, ACCUMULO_HOSTS, hosts));
    assertEquals(key, e.key());
    assertEquals(key + ": " + problem, e.getMessage());
  }

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
  void configurationRulesAreParsedFromTheirKeys() throws Exception {
    SecurityConfig config = SecurityConfig.builder().mode(SecurityMode.NONE)
        .userImpersonation("proxy@EX.COM:alice@EX.COM").hostImpersonation("*").build();
    ImpersonationRules.from(config).checkCaller(caller("proxy@EX.COM", "192.0.2.7"), "alice@EX.COM");
  }

  @Test
  void refusalsSayWhy() throws Exception {
    SecurityException e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("alice@EX.COM", "127.0.0.1"), "bob@EX.COM"));
    assertEquals("alice@EX.COM may not act as bob@EX.COM: it is not a proxy in " + USERS, e.getMessage());
    e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("proxy@EX.COM", "127.0.0.1"), "carol@EX.COM"));
    assertEquals("proxy@EX.COM may not act as carol@EX.COM: it may impersonate only [alice@EX.COM, bob@EX.COM]",
        e.getMessage());
    e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("proxy@EX.COM", "192.0.2.7"), "bob@EX.COM"));
    assertEquals("proxy@EX.COM may not act as bob@EX.COM: it connects from /192.0.2.7:4000, not from one of"
        + " [127.0.0.1, localhost] (" + HOSTS + ")", e.getMessage());
  }

  @Test
  void refusalsQuoteTheRequestedPrincipalEscaped() throws Exception {
    SecurityException e = assertThrows(SecurityException.class,
        () -> RULES.checkCaller(caller("alice@EX.COM", "127.0.0.1"), "bob@EX.COM\r\nINFO granted\u001b[0m"));
    assertEquals("alice@EX.COM may not act as bob@EX.COM\\r\\nINFO granted\\u001b[0m: it is not a proxy in "
        + USERS, e.getMessage());
  }

  @Test
  void badSyntaxNamesTheSecurethriftKeyByDefault() {
    ConfigException e = assertThrows(ConfigException.class, () -> ImpersonationRules.parse("proxy", "*"));
    assertEquals(USERS, e.key());
    e = assertThrows(ConfigException.class, () -> ImpersonationRules.parse("a:b;c:d", "*"));
    assertEquals(HOSTS + ": has 1 entry but " + USERS + " has 2 entries; give one host list (host1,host2 or *) per"
        + " proxy rule, in the same order, separated by ;", e.getMessage());
    e = assertThrows(ConfigException.class, () -> ImpersonationRules.parse("a:b", "h1,,h2"));
    assertEquals(HOSTS, e.key());
  }

  @Test
  void badSyntaxNamesTheKeyItWasReadFrom() {
    String oneHostListPerRule = "give one host list (host1,host2 or *) per proxy rule, in the same order, separated"
        + " by ;";
    rejected(ACCUMULO_USERS, "'alice' is not a rule; write proxy:user1,user2 or proxy:*, rules separated by ;",
        "alice", "*");
    rejected(ACCUMULO_USERS, "':bob' is not a rule; write proxy:user1,user2 or proxy:*, rules separated by ;",
        " :bob", "*");
    rejected(ACCUMULO_USERS, "'a:' is not a rule; write proxy:user1,user2 or proxy:*, rules separated by ;",
        "a:*;a: ", "*;*");
    rejected(ACCUMULO_HOSTS, "has 1 entry but " + ACCUMULO_USERS + " has 2 entries; " + oneHostListPerRule,
        "a:*;b:c", "*");
    rejected(ACCUMULO_HOSTS, "has 0 entries but " + ACCUMULO_USERS + " has 1 entry; " + oneHostListPerRule,
        "a:*", "");
    rejected(ACCUMULO_HOSTS, "set, but " + ACCUMULO_USERS + " is empty; " + oneHostListPerRule, " ", "*");
    rejected(ACCUMULO_HOSTS, "entry 2 is empty; give a comma-separated list or *", "a:*;b:*", "h1; ");
    rejected(ACCUMULO_USERS, "'alice,,bob' has an empty name; separate names with single commas",
        "proxy:alice,,bob", "*");
    rejected(ACCUMULO_HOSTS, "'h1,' has an empty name; separate names with single commas", "proxy:*", "h1,");
    rejected(ACCUMULO_USERS, "'*,alice' mixes * with names; use * alone", "proxy:*,alice", "*");
    rejected(ACCUMULO_HOSTS, "'h1, *' mixes * with names; use * alone", "proxy:alice", "h1, *");
    rejected(ACCUMULO_USERS, "proxy 'proxy' has two rules; list all its users in one rule",
        "proxy:alice;proxy:bob", "*;*");
  }

  @Test
  void namesAndSeparatorsMayBeSurroundedBySpaces() throws Exception {
    ImpersonationRules rules = ImpersonationRules.parse(" proxy@EX.COM : alice@EX.COM , bob@EX.COM ", " * ");
    rules.checkCaller(caller("proxy@EX.COM", "192.0.2.7"), "bob@EX.COM");
  }
}
