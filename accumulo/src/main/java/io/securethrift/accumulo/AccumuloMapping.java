package io.securethrift.accumulo;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.identity.KerberosName;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.TlsVersions;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Turns one Accumulo file into a {@link SecurityConfig} with Accumulo's defaults and rules: every value is checked
 * whether or not its feature is on, the rules of a feature apply when it is on, and any rejection names the Accumulo
 * key and the file.
 */
final class AccumuloMapping {
  private static final List<String> JSSE_STORE_KEYS = List.of("javax.net.ssl.keyStore", "javax.net.ssl.trustStore");

  private final SourceFile file;
  private final Dialect dialect;
  private final Environment environment;
  private final SecurityConfig.Builder builder = SecurityConfig.builder();
  /** Which Accumulo key each securethrift key got its value from, to name it when the builder rejects it. */
  private final Map<String, String> origins = new HashMap<>();

  AccumuloMapping(SourceFile file, Dialect dialect, Environment environment) {
    this.file = file;
    this.dialect = dialect;
    this.environment = environment;
  }

  SecurityConfig map() {
    checkGuardedKeys();
    boolean ssl = bool(Setting.SSL_ENABLED);
    boolean sasl = bool(Setting.SASL_ENABLED);
    boolean useJsse = bool(Setting.USE_JSSE);
    boolean clientAuth = dialect.key(Setting.CLIENT_AUTH).isPresent()
        ? bool(Setting.CLIENT_AUTH) : !value(Setting.KEYSTORE_PATH).isEmpty();
    StoreType keyStoreType = parse(Setting.KEYSTORE_TYPE, StoreType::parse);
    StoreType trustStoreType = parse(Setting.TRUSTSTORE_TYPE, StoreType::parse);
    QualityOfProtection qop = parse(Setting.QOP, QualityOfProtection::parse);
    Map<Setting, List<String>> protocols = protocols();
    SecurityMode mode = mode(ssl, sasl);
    builder.mode(mode);
    if (mode.usesTls()) {
      // Only servers ask for certificates; in a client file the setting only makes the client present its key store.
      builder.clientAuth(clientAuth && dialect.isServer() ? ClientAuth.NEED : ClientAuth.NONE);
      origin(ConfigProperty.TLS_CLIENT_AUTH, Setting.CLIENT_AUTH);
      builder.tlsProtocols(usableProtocols(protocols));
      if (useJsse) {
        jsseStores(clientAuth);
      } else {
        stores(clientAuth, keyStoreType, trustStoreType);
      }
    }
    if (mode.usesSasl()) {
      builder.qop(qop).canonicalizeHostName(true);
      origin(ConfigProperty.SASL_QOP, Setting.QOP);
      kerberos();
    }
    set(Setting.CIPHER_SUITES, ConfigProperty.TLS_CIPHER_SUITES);
    set(Setting.RPC_TIMEOUT, ConfigProperty.TIMEOUT_READ);
    set(Setting.RENEWAL_PERIOD, ConfigProperty.SASL_KERBEROS_RENEWAL_PERIOD);
    LibraryKeys.apply(file, dialect, qop, name(Setting.QOP), builder);
    try {
      return builder.build();
    } catch (ConfigException rejected) {
      throw file.rekey(origins.getOrDefault(rejected.key(), rejected.key()), rejected);
    }
  }

  private void checkGuardedKeys() {
    for (String key : file.entries().keySet()) {
      if (dialect.isGuarded(key) && !dialect.isKnown(key)) {
        throw file.error(key, "unknown key for " + dialect.description() + "; accepted keys: "
            + dialect.knownGuardedKeys());
      }
    }
  }

  private SecurityMode mode(boolean ssl, boolean sasl) {
    String modeKey = ConfigProperty.MODE.key();
    Optional<String> requested = file.get(modeKey);
    if (requested.isPresent()) {
      SecurityMode parsed;
      try {
        parsed = SecurityMode.parse(modeKey, requested.get());
      } catch (ConfigException rejected) {
        throw file.rekey(modeKey, rejected);
      }
      if (parsed != SecurityMode.SASL_OVER_TLS || !ssl || !sasl) {
        throw file.error(modeKey, "'" + requested.get() + "' cannot be set in " + dialect.description() + "; "
            + name(Setting.SSL_ENABLED) + " and " + name(Setting.SASL_ENABLED) + " choose the mode, and only "
            + SecurityMode.SASL_OVER_TLS + " may be added, with both set to true");
      }
      return parsed;
    }
    if (ssl && sasl) {
      throw file.error(name(Setting.SASL_ENABLED), "Cannot use both SSL and SASL (" + name(Setting.SSL_ENABLED)
          + " is true as well); add " + modeKey + "=" + SecurityMode.SASL_OVER_TLS + " to run Kerberos over TLS,"
          + " which only securethrift peers understand");
    }
    return ssl ? SecurityMode.TLS : sasl ? SecurityMode.SASL : SecurityMode.NONE;
  }

  private Map<Setting, List<String>> protocols() {
    Map<Setting, List<String>> named = new LinkedHashMap<>();
    for (Setting s : List.of(Setting.CLIENT_PROTOCOL, Setting.SERVER_PROTOCOLS)) {
      dialect.key(s).ifPresent(k -> named.put(s,
          TlsProtocols.parse(file, k.name(), value(s), s == Setting.CLIENT_PROTOCOL)));
    }
    return named;
  }

  /** A node enables its server list and its client protocol; Accumulo 2.x clients have no key and use TLSv1.2. */
  private List<String> usableProtocols(Map<Setting, List<String>> named) {
    if (named.isEmpty()) {
      return List.of("TLSv1.2");
    }
    List<String> union = new ArrayList<>();
    named.forEach((setting, names) -> union.addAll(TlsProtocols.usable(file, name(setting), names,
        file.get(name(setting)).isPresent())));
    origin(ConfigProperty.TLS_PROTOCOLS, named.keySet().iterator().next());
    return TlsVersions.ACCEPTED.stream().filter(union::contains).collect(Collectors.toList());
  }

  private void stores(boolean clientAuth, StoreType keyStoreType, StoreType trustStoreType) {
    if (dialect.isServer() || clientAuth) {
      String password = value(Setting.KEYSTORE_PASSWORD);
      builder.keyStore(store(Setting.KEYSTORE_PATH), keyStoreType,
          Secret.of(password.isEmpty() ? valueOr(Setting.INSTANCE_SECRET, "DEFAULT") : password));
      origin(ConfigProperty.TLS_KEYSTORE_PATH, Setting.KEYSTORE_PATH);
      origin(ConfigProperty.TLS_KEYSTORE_PASSWORD, Setting.KEYSTORE_PASSWORD);
    }
    String password = value(Setting.TRUSTSTORE_PASSWORD);
    builder.trustStore(store(Setting.TRUSTSTORE_PATH), trustStoreType, password.isEmpty() ? null : Secret.of(password));
    origin(ConfigProperty.TLS_TRUSTSTORE_PATH, Setting.TRUSTSTORE_PATH);
    origin(ConfigProperty.TLS_TRUSTSTORE_PASSWORD, Setting.TRUSTSTORE_PASSWORD);
  }

  private Path store(Setting setting) {
    String key = name(setting);
    String configured = value(setting);
    if (configured.isEmpty()) {
      throw file.error(key, "empty; with " + name(Setting.SSL_ENABLED) + "=true Accumulo loads this store, so give"
          + " its path (or set " + name(Setting.USE_JSSE) + "=true to use the JVM's javax.net.ssl.* properties)");
    }
    String expanded = expandConfDir(key, configured);
    return StoreFiles.find(expanded, environment.classLoader()).orElseThrow(() -> file.error(key, "'" + expanded
        + "' is neither a file nor a class-path resource"));
  }

  /** Accumulo 1.7's defaults start with $ACCUMULO_CONF_DIR: the variable, else the directory holding this file. */
  private String expandConfDir(String key, String path) {
    if (!path.startsWith(Dialect.ACCUMULO_CONF_DIR)) {
      return path;
    }
    String dir = environment.variables().get(Dialect.ACCUMULO_CONF_DIR.substring(1));
    if (dir == null || dir.isEmpty()) {
      Path parent = file.path().toAbsolutePath().getParent();
      if (parent == null) {
        throw file.error(key, "'" + path + "' needs ACCUMULO_CONF_DIR, which is not set");
      }
      dir = parent.toString();
    }
    return dir + path.substring(Dialect.ACCUMULO_CONF_DIR.length());
  }

  /**
   * The stores named by the JVM's {@code javax.net.ssl.*} properties. A trust store named there is as explicit as one
   * in the file; the JVM's fallback when none is named (its bundled public CAs) is not, so a server node requiring
   * client certificates must name one, as securethrift's own keys must.
   */
  private void jsseStores(boolean clientAuth) {
    String reason = " (JVM system property, read because " + name(Setting.USE_JSSE) + "=true)";
    String trustKey = JSSE_STORE_KEYS.get(1);
    if (clientAuth && dialect.isServer()
        && environment.systemProperties().getProperty(trustKey, "").trim().isEmpty()) {
      throw file.error(name(Setting.CLIENT_AUTH), "true, but with " + name(Setting.USE_JSSE) + "=true the trust"
          + " store is the JVM system property " + trustKey + ", which is not set (" + name(Setting.TRUSTSTORE_PATH)
          + " is not read), so the JVM's default trust store (the public CAs) would vouch for client certificates;"
          + " start the JVM with -D" + trustKey + "=<the trust store holding the CA that issues client certificates>");
    }
    for (String key : JSSE_STORE_KEYS) {
      String path = environment.systemProperties().getProperty(key, "").trim();
      if (path.isEmpty()) {
        continue;
      }
      if (!Files.isRegularFile(Path.of(path))) {
        throw new ConfigException(key, "file " + path + " does not exist" + reason);
      }
      String type = environment.systemProperties().getProperty(key + "Type", "").trim();
      String password = environment.systemProperties().getProperty(key + "Password", "");
      StoreType storeType;
      try {
        storeType = type.isEmpty() ? null : StoreType.parse(key + "Type", type);
      } catch (ConfigException rejected) {
        throw ConfigException.escaped(key + "Type", rejected.problem() + PeerText.sanitize(reason),
            ConfigException.BUILDER);
      }
      Secret secret = password.isEmpty() ? null : Secret.of(password);
      if (key.equals(JSSE_STORE_KEYS.get(0))) {
        builder.keyStore(Path.of(path), storeType, secret);
      } else {
        builder.trustStore(Path.of(path), storeType, secret);
      }
    }
  }

  private void kerberos() {
    String principal = valueOr(Setting.KERBEROS_PRINCIPAL, "");
    String keytab = valueOr(Setting.KERBEROS_KEYTAB, "");
    KerberosName parsed = principal.isEmpty() ? null : principal(principal);
    if (parsed != null && valueOr(Setting.AUTH_TYPE, "kerberos").equals("kerberos")) {
      builder.kerberosLogin(parsed.withHostExpanded(environment.localHostName()).toString(),
          keytab.isEmpty() ? null : path(Setting.KERBEROS_KEYTAB, keytab));
      origin(ConfigProperty.SASL_KERBEROS_PRINCIPAL, Setting.KERBEROS_PRINCIPAL);
      origin(ConfigProperty.SASL_KERBEROS_KEYTAB, Setting.KERBEROS_KEYTAB);
    } else if (!keytab.isEmpty() && dialect.isServer()) {
      throw file.error(name(Setting.KERBEROS_PRINCIPAL), "empty, but " + name(Setting.KERBEROS_KEYTAB)
          + " is set; give the principal whose keys the keytab holds");
    }
    if (dialect.key(Setting.SERVER_PRIMARY).isPresent()) {
      set(Setting.SERVER_PRIMARY, ConfigProperty.SASL_SERVER_PRIMARY);
    } else if (parsed != null) {
      builder.serverPrimary(parsed.primary());
      origin(ConfigProperty.SASL_SERVER_PRIMARY, Setting.KERBEROS_PRINCIPAL);
    }
    if (dialect.key(Setting.USER_IMPERSONATION).isPresent()) {
      Impersonation.read(file, name(Setting.USER_IMPERSONATION), value(Setting.USER_IMPERSONATION),
          name(Setting.HOST_IMPERSONATION), value(Setting.HOST_IMPERSONATION), builder);
    }
  }

  private KerberosName principal(String value) {
    try {
      return KerberosName.parse(value);
    } catch (IllegalArgumentException e) {
      throw file.error(name(Setting.KERBEROS_PRINCIPAL), e.getMessage());
    }
  }

  private Path path(Setting setting, String value) {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw file.error(name(setting), "'" + value + "' is not a file path: " + e.getReason());
    }
  }

  private boolean bool(Setting setting) {
    String text = value(setting);
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text);
    }
    throw file.error(name(setting), "'" + text + "' is not accepted; accepted values: true, false");
  }

  /** Parses a value with one of securethrift's token parsers, naming this file when it is rejected. */
  private <T> T parse(Setting setting, BiFunction<String, String, T> parser) {
    try {
      return parser.apply(name(setting), value(setting));
    } catch (ConfigException rejected) {
      throw file.rekey(name(setting), rejected);
    }
  }

  /** Passes a value through securethrift's own parsing, reporting a rejection under the Accumulo key. */
  private void set(Setting setting, ConfigProperty target) {
    dialect.key(setting).ifPresent(key -> {
      try {
        builder.set(target.key(), value(setting));
      } catch (ConfigException rejected) {
        throw file.rekey(key.name(), rejected);
      }
      origin(target, setting);
    });
  }

  private void origin(ConfigProperty target, Setting setting) {
    dialect.key(setting).ifPresent(k -> origins.put(target.key(), k.name()));
  }

  private String name(Setting setting) {
    return dialect.key(setting).map(Dialect.Key::name).orElseThrow();
  }

  /** {@link #value}, or {@code fallback} when this kind of file has no key for the setting. */
  private String valueOr(Setting setting, String fallback) {
    return dialect.key(setting).isPresent() ? value(setting) : fallback;
  }

  /** The file's value, or Accumulo's default when the file leaves the key out. */
  private String value(Setting setting) {
    Dialect.Key key = dialect.key(setting).orElseThrow();
    return file.get(key.name()).orElse(key.defaultValue());
  }
}
