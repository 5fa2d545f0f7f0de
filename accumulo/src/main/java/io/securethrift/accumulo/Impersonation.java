package io.securethrift.accumulo;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.ImpersonationRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulo's impersonation keys onto securethrift's: {@code instance.rpc.sasl.allowed.user.impersonation}
 * ({@code proxy:userA,userB;proxy2:*}) and {@code ...host.impersonation} (one host list or {@code *} per user rule)
 * are securethrift's syntax already, and Accumulo 1.7.0's per-user form
 * {@code instance.rpc.sasl.impersonation.<proxy>.users} and {@code .hosts} is converted to it. The syntax itself is
 * checked by core's {@link ImpersonationRules}, the one parser, under the key the text came from.
 */
final class Impersonation {
  static final String LEGACY_PREFIX = "instance.rpc.sasl.impersonation.";
  private Impersonation() {}

  /** Checks the rules in {@code file} and sets them on {@code builder} in the one-line form. */
  static void read(SourceFile file, String usersKey, String users, String hostsKey, String hosts,
      SecurityConfig.Builder builder) {
    Map<String, String[]> legacy = legacy(file);
    if (legacy.isEmpty()) {
      check(file, usersKey, users, hostsKey, hosts);
      builder.userImpersonation(users).hostImpersonation(hosts);
      return;
    }
    if (!users.isEmpty() || !hosts.isEmpty()) {
      throw file.error(usersKey, "set together with " + LEGACY_PREFIX + "*; use one form or the other");
    }
    List<String> userRules = new ArrayList<>();
    List<String> hostRules = new ArrayList<>();
    legacy.forEach((proxy, pair) -> {
      String rule = proxy + ":" + pair[0];
      check(file, LEGACY_PREFIX + proxy + ".users", rule, LEGACY_PREFIX + proxy + ".hosts", pair[1]);
      userRules.add(rule);
      hostRules.add(pair[1]);
    });
    builder.userImpersonation(String.join(";", userRules)).hostImpersonation(String.join(";", hostRules));
  }

  /** The per-user keys in file order: proxy name to its users and hosts values. */
  private static Map<String, String[]> legacy(SourceFile file) {
    Map<String, String[]> byProxy = new LinkedHashMap<>();
    file.entries().forEach((key, value) -> {
      if (!key.startsWith(LEGACY_PREFIX)) {
        return;
      }
      String rest = key.substring(LEGACY_PREFIX.length());
      int dot = rest.lastIndexOf('.');
      String field = dot < 0 ? "" : rest.substring(dot + 1);
      if (dot <= 0 || !(field.equals("users") || field.equals("hosts"))) {
        throw file.error(key, "not an impersonation key; write " + LEGACY_PREFIX + "<user>.users and " + LEGACY_PREFIX
            + "<user>.hosts");
      }
      String proxy = rest.substring(0, dot);
      // The one-line form separates rules with ; and a proxy from its users with the first :, so these would not
      // survive the conversion; no principal or host name holds them.
      if (proxy.contains(":") || proxy.contains(";")) {
        throw file.error(key, "the user name '" + proxy + "' holds ':' or ';'; name a Kerberos principal");
      }
      if (value.contains(";")) {
        throw file.error(key, "holds ';'; give a comma-separated list or *");
      }
      byProxy.computeIfAbsent(proxy, p -> new String[2])[field.equals("users") ? 0 : 1] = value.trim();
    });
    byProxy.forEach((proxy, pair) -> {
      for (int i = 0; i < 2; i++) {
        if (pair[i] == null || pair[i].isEmpty()) {
          throw file.error(LEGACY_PREFIX + proxy + (i == 0 ? ".users" : ".hosts"), "empty or missing; give a"
              + " comma-separated list or *");
        }
      }
    });
    return byProxy;
  }

  /** Parses the rules with the one parser, attributing a rejection to the key it names and to this file. */
  private static void check(SourceFile file, String usersKey, String users, String hostsKey, String hosts) {
    try {
      ImpersonationRules.parse(usersKey, users, hostsKey, hosts);
    } catch (ConfigException rejected) {
      throw file.rekey(rejected.key(), rejected);
    }
  }
}
