package io.securethrift.core.identity;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulo's rule for who may act for whom: the principal named in a request's credentials must be the
 * SASL-authenticated principal of the connection, unless that principal is a proxy allowed to impersonate the named
 * user from the host it connects from. The one parser of these rules, whichever keys hold them: securethrift's
 * {@code securethrift.sasl.impersonation.users = proxy:userA,userB;proxy2:*} and
 * {@code securethrift.sasl.impersonation.hosts = host1,host2;*}, and Accumulo's
 * {@code instance.rpc.sasl.allowed.user.impersonation} and {@code ...host.impersonation} in the same syntax; the n-th
 * host entry belongs to the n-th proxy. Immutable and thread-safe; make one per server with
 * {@link #from(SecurityConfig)} and call {@link #checkCaller} in every call that carries credentials.
 */
public final class ImpersonationRules {
  private static final String ANY = "*";
  private static final String ONE_HOST_LIST_PER_RULE =
      "give one host list (host1,host2 or *) per proxy rule, in the same order, separated by ;";

  private final Map<String, Rule> byProxy;

  private static final class Rule {
    final List<String> users;
    final List<String> hosts;

    Rule(List<String> users, List<String> hosts) {
      this.users = users;
      this.hosts = hosts;
    }
  }

  private ImpersonationRules(Map<String, Rule> byProxy) {
    this.byProxy = byProxy;
  }

  /**
   * Parses the configuration's rules.
   *
   * @throws ConfigException naming the key whose text is malformed, or the host key if the two lists differ in length
   */
  public static ImpersonationRules from(SecurityConfig config) {
    return parse(config.sasl().userImpersonation(), config.sasl().hostImpersonation());
  }

  /**
   * Parses rule texts held by {@code securethrift.sasl.impersonation.users} and {@code .hosts}; empty texts allow no
   * impersonation at all.
   */
  public static ImpersonationRules parse(String userRules, String hostRules) {
    return parse(ConfigProperty.SASL_USER_IMPERSONATION.key(), userRules,
        ConfigProperty.SASL_HOST_IMPERSONATION.key(), hostRules);
  }

  /**
   * Parses rule texts held by other keys, such as Accumulo's; a rejection names {@code usersKey} or {@code hostsKey}
   * (a {@link ConfigException} with source {@link ConfigException#BUILDER}, for the caller to attribute to its file).
   * Refusals by {@link #checkCaller} still name the {@code securethrift.*} keys the rules end up under.
   */
  public static ImpersonationRules parse(String usersKey, String userRules, String hostsKey, String hostRules) {
    List<String> userEntries = entries(userRules);
    List<String> hostEntries = entries(hostRules);
    if (userEntries.isEmpty() && !hostEntries.isEmpty()) {
      throw new ConfigException(hostsKey, "set, but " + usersKey + " is empty; " + ONE_HOST_LIST_PER_RULE);
    }
    if (userEntries.size() != hostEntries.size()) {
      throw new ConfigException(hostsKey, "has " + entries(hostEntries.size()) + " but " + usersKey + " has "
          + entries(userEntries.size()) + "; " + ONE_HOST_LIST_PER_RULE);
    }
    Map<String, Rule> rules = new LinkedHashMap<>();
    for (int i = 0; i < userEntries.size(); i++) {
      String entry = userEntries.get(i);
      int colon = entry.indexOf(':');
      if (colon <= 0 || colon == entry.length() - 1) {
        throw new ConfigException(usersKey, "'" + entry + "' is not a rule; write proxy:user1,user2 or proxy:*, rules"
            + " separated by ;");
      }
      String proxy = entry.substring(0, colon).trim();
      List<String> users = names(usersKey, i, entry.substring(colon + 1));
      List<String> hosts = names(hostsKey, i, hostEntries.get(i));
      if (rules.put(proxy, new Rule(users, hosts)) != null) {
        throw new ConfigException(usersKey, "proxy '" + proxy + "' has two rules; list all its users in one rule");
      }
    }
    return new ImpersonationRules(Collections.unmodifiableMap(rules));
  }

  private static List<String> entries(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    List<String> entries = new ArrayList<>();
    for (String entry : text.split(";", -1)) {
      entries.add(entry.trim());
    }
    return entries;
  }

  private static String entries(int count) {
    return count + (count == 1 ? " entry" : " entries");
  }

  private static List<String> names(String key, int entry, String text) {
    if (text.isBlank()) {
      throw new ConfigException(key, "entry " + (entry + 1) + " is empty; give a comma-separated list or *");
    }
    List<String> names = new ArrayList<>();
    for (String name : text.split(",", -1)) {
      names.add(name.trim());
    }
    if (names.contains("")) {
      throw new ConfigException(key, "'" + text.trim() + "' has an empty name; separate names with single commas");
    }
    if (names.contains(ANY) && names.size() > 1) {
      throw new ConfigException(key, "'" + text.trim() + "' mixes * with names; use * alone");
    }
    return List.copyOf(names);
  }

  /**
   * Checks that {@code caller} may make a request on behalf of {@code requestedPrincipal}.
   *
   * @throws SecurityException naming the caller, the requested principal and the rule that is missing
   */
  public void checkCaller(PeerIdentity caller, String requestedPrincipal) {
    // The requested principal comes from the request and the refusal is likely logged: quote both names safely.
    String requested = PeerText.sanitize(requestedPrincipal);
    String principal = caller.principal().orElseThrow(() -> new SecurityException("connection from "
        + caller.remoteAddress() + " is not authenticated; it may not act as " + requested));
    if (principal.equals(requestedPrincipal)) {
      return;
    }
    String refused = PeerText.sanitize(principal) + " may not act as " + requested + ": ";
    Rule rule = byProxy.get(principal);
    if (rule == null) {
      throw new SecurityException(refused + "it is not a proxy in "
          + ConfigProperty.SASL_USER_IMPERSONATION.key());
    }
    if (!rule.users.contains(ANY) && !rule.users.contains(requestedPrincipal)) {
      throw new SecurityException(refused + "it may impersonate only " + rule.users);
    }
    if (!rule.hosts.contains(ANY) && !fromAllowedHost(caller.remoteAddress(), rule.hosts)) {
      throw new SecurityException(refused + "it connects from " + caller.remoteAddress()
          + ", not from one of " + rule.hosts + " (" + ConfigProperty.SASL_HOST_IMPERSONATION.key() + ")");
    }
  }

  /**
   * Matches by address first (names resolved now, so a host that moved is still recognised; an IPv4 address also
   * matches its IPv4-mapped IPv6 form), then by the caller's canonical name.
   */
  private static boolean fromAllowedHost(InetSocketAddress remote, List<String> hosts) {
    if (remote == null || remote.getAddress() == null) {
      return false;
    }
    InetAddress address = normalized(remote.getAddress());
    for (String host : hosts) {
      try {
        for (InetAddress allowed : InetAddress.getAllByName(host)) {
          if (normalized(allowed).equals(address)) {
            return true;
          }
        }
      } catch (UnknownHostException ignored) {
        // An allowed name that does not resolve matches no address; the name comparison below may still match.
      }
    }
    String name = address.getCanonicalHostName();
    return hosts.stream().anyMatch(name::equalsIgnoreCase);
  }

  private static InetAddress normalized(InetAddress address) {
    if (address instanceof Inet6Address) {
      byte[] b = address.getAddress();
      boolean mapped = true;
      for (int i = 0; i < 10; i++) {
        mapped &= b[i] == 0;
      }
      if (mapped && b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
        try {
          return Inet4Address.getByAddress(Arrays.copyOfRange(b, 12, 16));
        } catch (UnknownHostException impossible) {
          return address;
        }
      }
    }
    return address;
  }
}
