package io.securethrift.accumulo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Accumulo's impersonation rules: {@code instance.rpc.sasl.allowed.user.impersonation} ({@code proxy:userA,userB;
 * proxy2:*}) and {@code ...host.impersonation} (one host list or {@code *} per user rule), or Accumulo 1.7.0's
 * per-user form {@code instance.rpc.sasl.impersonation.<proxy>.users} and {@code .hosts}, converted to the one-line
 * form.
 */
final class Impersonation {
  static final String LEGACY_PREFIX = "instance.rpc.sasl.impersonation.";

  /** The one-line user and host rules. */
  static final class Rules {
    private final String users;
    private final String hosts;

    Rules(String users, String hosts) {
      this.users = users;
      this.hosts = hosts;
    }

    String users() {
      return users;
    }

    String hosts() {
      return hosts;
    }
  }

  private Impersonation() {}

  static Rules read(SourceFile file, String usersKey, String users, String hostsKey, String hosts) {
    Rules rules = legacy(file).map(legacy -> {
      if (!users.isEmpty() || !hosts.isEmpty()) {
        throw file.error(usersKey, "set together with " + LEGACY_PREFIX + "*; use one form or the other");
      }
      return legacy;
    }).orElse(new Rules(users, hosts));
    validate(file, usersKey, rules.users(), hostsKey, rules.hosts());
    return rules;
  }

  private static Optional<Rules> legacy(SourceFile file) {
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
      byProxy.computeIfAbsent(rest.substring(0, dot), p -> new String[2])[field.equals("users") ? 0 : 1] = value.trim();
    });
    if (byProxy.isEmpty()) {
      return Optional.empty();
    }
    List<String> users = new ArrayList<>();
    List<String> hosts = new ArrayList<>();
    byProxy.forEach((proxy, pair) -> {
      for (int i = 0; i < 2; i++) {
        if (pair[i] == null || pair[i].isEmpty()) {
          throw file.error(LEGACY_PREFIX + proxy + (i == 0 ? ".users" : ".hosts"), "empty or missing; give a"
              + " comma-separated list or *");
        }
      }
      users.add(proxy + ":" + pair[0]);
      hosts.add(pair[1]);
    });
    return Optional.of(new Rules(String.join(";", users), String.join(";", hosts)));
  }

  private static void validate(SourceFile file, String usersKey, String users, String hostsKey, String hosts) {
    if (users.isEmpty()) {
      if (!hosts.isEmpty()) {
        throw file.error(hostsKey, "set, but " + usersKey + " is empty; give one host list per user rule");
      }
      return;
    }
    String[] userRules = users.split(";", -1);
    for (String rule : userRules) {
      String trimmed = rule.trim();
      int colon = trimmed.indexOf(':');
      if (colon <= 0 || colon == trimmed.length() - 1) {
        throw file.error(usersKey, "'" + rule + "' is not a rule; write proxy:user1,user2 or proxy:*, rules separated"
            + " by ;");
      }
    }
    String[] hostRules = hosts.split(";", -1);
    if (hostRules.length != userRules.length) {
      throw file.error(hostsKey, "has " + hostRules.length + " entries but " + usersKey + " has " + userRules.length
          + "; give one host list (or *) per user rule, separated by ;");
    }
    for (String rule : hostRules) {
      if (rule.isBlank()) {
        throw file.error(hostsKey, "an entry is empty; give a comma-separated host list or *");
      }
    }
  }
}
