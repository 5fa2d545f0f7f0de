package io.securethrift.accumulo;

import io.securethrift.core.ConfigProperty;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One kind of Accumulo configuration file: which key spells each {@link Setting} and with what default, which other
 * keys of the guarded prefixes are legitimate, and whether the file describes a server node or a client.
 */
enum Dialect {
  /** Accumulo 1.7 {@code accumulo-site.xml}: a server node, which is also a client of the other servers. */
  SITE_1_7("accumulo-site.xml (Accumulo 1.7)", true, List.of("rpc.", "instance.rpc."),
      Set.of("instance.rpc.sasl.impersonation."), Set.of()),
  /** Accumulo 1.7 {@code client.conf}. */
  CLIENT_1_7("client.conf (Accumulo 1.7)", false, List.of("rpc.", "instance.rpc."),
      Set.of("instance.rpc.sasl.impersonation."),
      Set.of("rpc.ssl.server.enabled.protocols", "rpc.ssl.cipher.suites",
          "instance.rpc.sasl.allowed.user.impersonation", "instance.rpc.sasl.allowed.host.impersonation")),
  /** Accumulo 2.x {@code accumulo.properties}. */
  SITE_2("accumulo.properties (Accumulo 2.x)", true, List.of("rpc.", "instance.rpc."), Set.of(),
      Set.of("rpc.backlog", "rpc.bind.addr", "rpc.advertise.addr", "rpc.message.size.max")),
  /** Accumulo 2.x {@code accumulo-client.properties}. */
  CLIENT_2("accumulo-client.properties (Accumulo 2.x)", false, List.of("rpc.", "instance.rpc.", "ssl.", "sasl."),
      Set.of(), Set.of("rpc.transport.idle.timeout"));

  /** A key and the default Accumulo uses when the file leaves it out. */
  static final class Key {
    private final String name;
    private final String defaultValue;

    Key(String name, String defaultValue) {
      this.name = name;
      this.defaultValue = defaultValue;
    }

    String name() {
      return name;
    }

    String defaultValue() {
      return defaultValue;
    }
  }

  static final String ACCUMULO_CONF_DIR = "$ACCUMULO_CONF_DIR";

  private final String description;
  private final boolean server;
  private final List<String> guardedPrefixes;
  private final Set<String> knownPrefixes;
  private final Set<String> otherKnownKeys;
  private final Map<Setting, Key> keys = new EnumMap<>(Setting.class);

  Dialect(String description, boolean server, List<String> guardedPrefixes, Set<String> knownPrefixes,
      Set<String> otherKnownKeys) {
    this.description = description;
    this.server = server;
    this.guardedPrefixes = guardedPrefixes;
    this.knownPrefixes = knownPrefixes;
    this.otherKnownKeys = otherKnownKeys;
  }

  static {
    for (Dialect d : List.of(SITE_1_7, CLIENT_1_7, SITE_2)) {
      boolean v1 = d != SITE_2;
      d.put(Setting.SSL_ENABLED, "instance.rpc.ssl.enabled", "false");
      d.put(Setting.CLIENT_AUTH, "instance.rpc.ssl.clientAuth", "false");
      d.put(Setting.USE_JSSE, "rpc.useJsse", "false");
      d.put(Setting.KEYSTORE_PATH, "rpc.javax.net.ssl.keyStore", v1 ? ACCUMULO_CONF_DIR + "/ssl/keystore.jks" : "");
      d.put(Setting.KEYSTORE_PASSWORD, "rpc.javax.net.ssl.keyStorePassword", "");
      d.put(Setting.KEYSTORE_TYPE, "rpc.javax.net.ssl.keyStoreType", "jks");
      d.put(Setting.TRUSTSTORE_PATH, "rpc.javax.net.ssl.trustStore",
          v1 ? ACCUMULO_CONF_DIR + "/ssl/truststore.jks" : "");
      d.put(Setting.TRUSTSTORE_PASSWORD, "rpc.javax.net.ssl.trustStorePassword", "");
      d.put(Setting.TRUSTSTORE_TYPE, "rpc.javax.net.ssl.trustStoreType", "jks");
      d.put(Setting.CLIENT_PROTOCOL, "rpc.ssl.client.protocol", v1 ? "TLSv1" : "TLSv1.2");
      d.put(Setting.SASL_ENABLED, "instance.rpc.sasl.enabled", "false");
      d.put(Setting.QOP, "rpc.sasl.qop", "auth");
      d.put(Setting.RPC_TIMEOUT, "general.rpc.timeout", "120s");
      d.put(Setting.INSTANCE_SECRET, "instance.secret", "DEFAULT");
      if (d.server) {
        d.put(Setting.SERVER_PROTOCOLS, "rpc.ssl.server.enabled.protocols", v1 ? "TLSv1,TLSv1.1,TLSv1.2" : "TLSv1.2");
        d.put(Setting.CIPHER_SUITES, "rpc.ssl.cipher.suites", "");
        d.put(Setting.USER_IMPERSONATION, "instance.rpc.sasl.allowed.user.impersonation", "");
        d.put(Setting.HOST_IMPERSONATION, "instance.rpc.sasl.allowed.host.impersonation", "");
        d.put(Setting.KERBEROS_PRINCIPAL, "general.kerberos.principal", "");
        d.put(Setting.KERBEROS_KEYTAB, "general.kerberos.keytab", "");
        d.put(Setting.RENEWAL_PERIOD, "general.kerberos.renewal.period", "30s");
      } else {
        d.put(Setting.SERVER_PRIMARY, "kerberos.server.primary", "accumulo");
      }
    }
    CLIENT_2.put(Setting.SSL_ENABLED, "ssl.enabled", "false");
    CLIENT_2.put(Setting.USE_JSSE, "ssl.use.jsse", "false");
    CLIENT_2.put(Setting.KEYSTORE_PATH, "ssl.keystore.path", "");
    CLIENT_2.put(Setting.KEYSTORE_PASSWORD, "ssl.keystore.password", "");
    CLIENT_2.put(Setting.KEYSTORE_TYPE, "ssl.keystore.type", "jks");
    CLIENT_2.put(Setting.TRUSTSTORE_PATH, "ssl.truststore.path", "");
    CLIENT_2.put(Setting.TRUSTSTORE_PASSWORD, "ssl.truststore.password", "");
    CLIENT_2.put(Setting.TRUSTSTORE_TYPE, "ssl.truststore.type", "jks");
    CLIENT_2.put(Setting.SASL_ENABLED, "sasl.enabled", "false");
    CLIENT_2.put(Setting.QOP, "sasl.qop", "auth");
    CLIENT_2.put(Setting.SERVER_PRIMARY, "sasl.kerberos.server.primary", "accumulo");
    CLIENT_2.put(Setting.AUTH_TYPE, "auth.type", "password");
    CLIENT_2.put(Setting.KERBEROS_PRINCIPAL, "auth.principal", "");
    CLIENT_2.put(Setting.KERBEROS_KEYTAB, "auth.token", "");
  }

  private void put(Setting setting, String name, String defaultValue) {
    keys.put(setting, new Key(name, defaultValue));
  }

  /** Names the kind of file in messages. */
  String description() {
    return description;
  }

  /** Whether the file configures a server node (which loads its key store always) rather than a client. */
  boolean isServer() {
    return server;
  }

  /** How this kind of file spells {@code setting}; empty when it cannot express it. */
  Optional<Key> key(Setting setting) {
    return Optional.ofNullable(keys.get(setting));
  }

  /** The keys of this kind of file that determine {@code property}, so a securethrift key cannot override them. */
  List<String> keysDetermining(ConfigProperty property) {
    List<String> names = new ArrayList<>();
    keys.forEach((setting, key) -> {
      if (setting.target().filter(property::equals).isPresent()) {
        names.add(key.name());
      }
    });
    return names;
  }

  /** Whether a key falls under a prefix where every key must be known, such as {@code rpc.}. */
  boolean isGuarded(String name) {
    return guardedPrefixes.stream().anyMatch(name::startsWith);
  }

  /** Whether a guarded key is one this version of Accumulo defines. */
  boolean isKnown(String name) {
    return otherKnownKeys.contains(name) || knownPrefixes.stream().anyMatch(name::startsWith)
        || keys.values().stream().anyMatch(k -> k.name().equals(name));
  }

  /** The guarded keys this kind of file accepts, for error messages. */
  String knownGuardedKeys() {
    Set<String> names = new TreeSet<>(otherKnownKeys);
    keys.values().stream().map(Key::name).filter(this::isGuarded).forEach(names::add);
    knownPrefixes.stream().map(p -> p + "*").forEach(names::add);
    return String.join(", ", names);
  }
}
