package io.securethrift.zookeeper;

import io.securethrift.core.SaslSettings;
import io.securethrift.core.identity.KerberosName;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@code Krb5LoginModule} section ZooKeeper logs in with, from {@link SaslSettings}, and registers it under
 * a name derived from the login so that each principal gets its own section and clients with different principals
 * can share a JVM.
 */
final class KerberosSection {
  private static final String PREFIX = "securethrift-zookeeper-";

  private KerberosSection() {}

  /**
   * Registers the section for this login and returns its name. With a principal and keytab the login is from the
   * keytab; without, from the ticket cache of an existing {@code kinit}.
   */
  static String register(SaslSettings sasl, boolean initiator) {
    Map<String, String> options = new LinkedHashMap<>();
    Optional<Path> keytab = sasl.kerberosKeytab();
    if (keytab.isPresent()) {
      options.put("useKeyTab", "true");
      options.put("keyTab", keytab.get().toAbsolutePath().toString());
      options.put("principal",
          KerberosName.parse(sasl.kerberosPrincipal().orElseThrow()).withHostExpanded().toString());
      options.put("storeKey", "true");
      options.put("doNotPrompt", "true");
    } else {
      options.put("useTicketCache", "true");
      options.put("doNotPrompt", "true");
    }
    // Re-read krb5.conf at every login so a changed or replaced KDC configuration is picked up.
    options.put("refreshKrb5Config", "true");
    options.put("isInitiator", Boolean.toString(initiator));
    String name = name(sasl, initiator);
    JaasSections.register(name, options);
    return name;
  }

  /** The section name {@link #register} uses, for configuration files written before the login exists. */
  static String name(SaslSettings sasl, boolean initiator) {
    return PREFIX + (initiator ? "client-" : "server-") + sasl.kerberosPrincipal().orElse("ticket-cache")
        + sasl.kerberosKeytab().map(k -> "-" + Integer.toHexString(k.toAbsolutePath().hashCode())).orElse("");
  }
}
