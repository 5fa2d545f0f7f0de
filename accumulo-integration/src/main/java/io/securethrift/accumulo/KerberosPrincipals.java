package io.securethrift.accumulo;

import java.util.Locale;
import java.util.function.Supplier;

/** Kerberos principal names as Accumulo writes them: {@code primary/instance@REALM}, with {@code _HOST}. */
final class KerberosPrincipals {
  static final String HOST_PLACEHOLDER = "_HOST";

  private KerberosPrincipals() {}

  /** Replaces an instance part of exactly {@code _HOST} with the (lower-cased) local canonical host name. */
  static String expandHost(String principal, Supplier<String> localHostName) {
    int slash = principal.indexOf('/');
    if (slash < 0) {
      return principal;
    }
    int at = principal.indexOf('@', slash);
    String instance = at < 0 ? principal.substring(slash + 1) : principal.substring(slash + 1, at);
    if (!instance.equals(HOST_PLACEHOLDER)) {
      return principal;
    }
    return principal.substring(0, slash + 1) + localHostName.get().toLowerCase(Locale.ROOT)
        + (at < 0 ? "" : principal.substring(at));
  }

  /** The primary: everything before the first {@code /} or {@code @}. */
  static String primary(String principal) {
    int end = principal.length();
    for (char c : new char[] {'/', '@'}) {
      int i = principal.indexOf(c);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    return principal.substring(0, end);
  }
}
