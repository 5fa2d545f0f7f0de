package io.securethrift.core;

import io.securethrift.core.internal.TlsVersions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one immutable description of how securethrift secures connections. Build it with {@link #builder()} (typed
 * setters) or {@link #fromProperties(Map)} (the keys in {@link ConfigProperty}); every value is validated once, in
 * {@link Builder#build()}, and a rejected value raises a {@link ConfigException} naming its key.
 */
public final class SecurityConfig {
  private static final Logger LOG = LoggerFactory.getLogger(SecurityConfig.class);
  /** The use of weak suites is logged once per JVM, not for every configuration derived from the first. */
  private static final AtomicBoolean WEAK_SUITES_LOGGED = new AtomicBoolean();
  static final int MIN_FRAME_SIZE = 1024;
  /** Leaves room for the 4-byte header in a Java array. */
  static final long MAX_FRAME_SIZE = Integer.MAX_VALUE - 8;

  private final SecurityMode mode;
  private final TlsSettings tls;
  private final SaslSettings sasl;
  private final Timeouts timeouts;
  private final Limits limits;

  private SecurityConfig(SecurityMode mode, TlsSettings tls, SaslSettings sasl, Timeouts timeouts, Limits limits) {
    this.mode = mode;
    this.tls = tls;
    this.sasl = sasl;
    this.timeouts = timeouts;
    this.limits = limits;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads the {@code securethrift.*} keys of a property map; other keys are ignored so the map can be a whole
   * application configuration. An unknown {@code securethrift.*} key is an error, since it is almost always a typo.
   */
  public static SecurityConfig fromProperties(Map<String, String> properties) {
    try {
      Builder builder = builder();
      properties.forEach(builder::set);
      return builder.build();
    } catch (ConfigException e) {
      throw e.from(ConfigException.PROPERTIES);
    }
  }

  public SecurityMode mode() {
    return mode;
  }

  /** TLS settings; meaningful when {@link SecurityMode#usesTls()}. */
  public TlsSettings tls() {
    return tls;
  }

  /** SASL settings; meaningful when {@link SecurityMode#usesSasl()}. */
  public SaslSettings sasl() {
    return sasl;
  }

  public Timeouts timeouts() {
    return timeouts;
  }

  public Limits limits() {
    return limits;
  }

  /**
   * The configuration as {@code securethrift.*} properties that {@link #fromProperties(Map)} reads back to an equal
   * configuration (delegation tokens and secret look-ups are code, not properties, and are left out). The map holds
   * store passwords in clear: write it only where the stores themselves could be read.
   */
  public Map<String, String> toProperties() {
    Map<String, String> map = new LinkedHashMap<>();
    for (ConfigProperty p : ConfigProperty.values()) {
      map.put(p.key(), p.read(this));
    }
    return map;
  }

  /**
   * A builder holding this configuration's values, to derive a variant. The values are copied as they are (store
   * passwords stay {@link Secret}s, extensions stay the same instances); nothing goes through text.
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Every non-empty setting by key; secrets show as {@code ****} and are never turned into text. */
  @Override
  public String toString() {
    StringJoiner s = new StringJoiner(", ", "SecurityConfig[", "]");
    for (ConfigProperty p : ConfigProperty.values()) {
      String value = p.shown(this);
      if (!value.isEmpty()) {
        s.add(p.key() + "=" + value);
      }
    }
    return s.toString();
  }

  /** Collects settings; {@link #build()} validates them all at once. Not thread-safe. */
  public static final class Builder {
    private SecurityMode mode;
    private TlsEngine tlsEngine;
    private List<String> tlsProtocols;
    private List<String> tlsCipherSuites;
    private boolean allowWeakCipherSuites;
    private Path keyStorePath;
    private Secret keyStorePassword;
    private StoreType keyStoreType;
    private String keyStoreAlias;
    private Path trustStorePath;
    private Secret trustStorePassword;
    private StoreType trustStoreType;
    private ClientAuth clientAuth;
    private boolean hostnameVerification;
    private PrincipalMapping principalMapping;
    private Duration tlsReloadInterval;
    private SaslMechanism saslMechanism;
    private List<QualityOfProtection> qop;
    private CipherStrength digestMinStrength;
    private String serverPrimary;
    private String serverHost;
    private boolean canonicalizeHostName;
    private String kerberosPrincipal;
    private Path kerberosKeytab;
    private Duration renewalPeriod;
    private SslContextFactory sslContextFactory;
    private DelegationToken delegationToken;
    private DelegationTokenSecrets delegationTokenSecrets;
    private String userImpersonation;
    private String hostImpersonation;
    private Duration connectTimeout;
    private Duration readTimeout;
    private Duration handshakeTimeout;
    private long maxFrameSize;
    private long maxNegotiationMessageSize;

    /** Starts from the defaults, which {@link ConfigProperty} defines. */
    private Builder() {
      for (ConfigProperty p : ConfigProperty.values()) {
        p.apply(this, p.defaultValue());
      }
    }

    private Builder(SecurityConfig c) {
      TlsSettings t = c.tls;
      SaslSettings a = c.sasl;
      mode = c.mode;
      tlsEngine = t.engine();
      tlsProtocols = t.protocols();
      tlsCipherSuites = t.cipherSuites();
      allowWeakCipherSuites = t.allowWeakCipherSuites();
      t.keyStore().ifPresent(k -> keyStore(k.path(), k.type(), k.password().orElse(null))
          .keyStoreAlias(k.alias().orElse(null)));
      t.trustStore().ifPresent(k -> trustStore(k.path(), k.type(), k.password().orElse(null)));
      clientAuth = t.clientAuth();
      hostnameVerification = t.hostnameVerification();
      principalMapping = t.principalMapping();
      tlsReloadInterval = t.reloadInterval();
      sslContextFactory = t.sslContextFactory().orElse(null);
      saslMechanism = a.mechanism();
      qop = a.qop();
      digestMinStrength = a.digestMinStrength();
      serverPrimary = a.serverPrimary();
      serverHost = a.serverHost().orElse(null);
      canonicalizeHostName = a.canonicalizeHostName();
      kerberosPrincipal = a.kerberosPrincipal().orElse(null);
      kerberosKeytab = a.kerberosKeytab().orElse(null);
      renewalPeriod = a.renewalPeriod();
      delegationToken = a.delegationToken().orElse(null);
      delegationTokenSecrets = a.delegationTokenSecrets().orElse(null);
      userImpersonation = a.userImpersonation();
      hostImpersonation = a.hostImpersonation();
      connectTimeout = c.timeouts.connect();
      readTimeout = c.timeouts.read();
      handshakeTimeout = c.timeouts.handshake();
      maxFrameSize = c.limits.maxFrameSize();
      maxNegotiationMessageSize = c.limits.maxNegotiationMessageSize();
    }

    /**
     * Sets one property by its key. Keys outside {@code securethrift.*} are ignored; an unknown key inside it is an
     * error.
     */
    public Builder set(String key, String value) {
      Optional<ConfigProperty> property = ConfigProperty.forKey(key);
      if (property.isPresent()) {
        property.get().apply(this, value);
      } else if (key.startsWith("securethrift.")) {
        throw new ConfigException(key, "unknown setting; see docs/configuration.md for the keys securethrift reads");
      }
      return this;
    }

    public Builder mode(SecurityMode mode) {
      this.mode = Objects.requireNonNull(mode);
      return this;
    }

    public Builder tlsEngine(TlsEngine engine) {
      this.tlsEngine = Objects.requireNonNull(engine);
      return this;
    }

    public Builder tlsProtocols(List<String> protocols) {
      this.tlsProtocols = List.copyOf(protocols);
      return this;
    }

    public Builder tlsCipherSuites(List<String> suites) {
      this.tlsCipherSuites = List.copyOf(suites);
      return this;
    }

    /**
     * Whether {@link #tlsCipherSuites} may name suites without AEAD encryption or forward secrecy; only for peers that
     * support nothing better.
     */
    public Builder allowWeakCipherSuites(boolean allow) {
      this.allowWeakCipherSuites = allow;
      return this;
    }

    /** Key store file; type and password may follow. A null path clears the key store. */
    public Builder keyStorePath(Path path) {
      this.keyStorePath = path;
      return this;
    }

    public Builder keyStorePassword(Secret password) {
      this.keyStorePassword = password;
      return this;
    }

    public Builder keyStoreType(StoreType type) {
      this.keyStoreType = type;
      return this;
    }

    public Builder keyStoreAlias(String alias) {
      this.keyStoreAlias = alias;
      return this;
    }

    /** Shorthand for a key store's path, type (null: detect) and password (null: none). */
    public Builder keyStore(Path path, StoreType type, Secret password) {
      return keyStorePath(path).keyStoreType(type).keyStorePassword(password);
    }

    public Builder trustStorePath(Path path) {
      this.trustStorePath = path;
      return this;
    }

    public Builder trustStorePassword(Secret password) {
      this.trustStorePassword = password;
      return this;
    }

    public Builder trustStoreType(StoreType type) {
      this.trustStoreType = type;
      return this;
    }

    /** Shorthand for a trust store's path, type (null: detect) and password (null: none). */
    public Builder trustStore(Path path, StoreType type, Secret password) {
      return trustStorePath(path).trustStoreType(type).trustStorePassword(password);
    }

    public Builder clientAuth(ClientAuth clientAuth) {
      this.clientAuth = Objects.requireNonNull(clientAuth);
      return this;
    }

    public Builder hostnameVerification(boolean verify) {
      this.hostnameVerification = verify;
      return this;
    }

    public Builder principalMapping(PrincipalMapping mapping) {
      this.principalMapping = Objects.requireNonNull(mapping);
      return this;
    }

    public Builder tlsReloadInterval(Duration interval) {
      this.tlsReloadInterval = Objects.requireNonNull(interval);
      return this;
    }

    /**
     * The TLS context factory of this configuration only; default none (null), which means the TLS module's standard
     * factory reading the configured files. Code, not a property: {@link #toProperties()} leaves it out.
     */
    public Builder sslContextFactory(SslContextFactory factory) {
      this.sslContextFactory = factory;
      return this;
    }

    public Builder saslMechanism(SaslMechanism mechanism) {
      this.saslMechanism = Objects.requireNonNull(mechanism);
      return this;
    }

    /** Acceptable QOP levels, most preferred first. */
    public Builder qop(List<QualityOfProtection> qop) {
      this.qop = List.copyOf(qop);
      return this;
    }

    public Builder qop(QualityOfProtection... qop) {
      return qop(List.of(qop));
    }

    /** The weakest cipher a DIGEST-MD5 {@code auth-conf} connection may use. */
    public Builder digestMinStrength(CipherStrength strength) {
      this.digestMinStrength = Objects.requireNonNull(strength);
      return this;
    }

    public Builder serverPrimary(String primary) {
      this.serverPrimary = primary;
      return this;
    }

    public Builder serverHost(String host) {
      this.serverHost = host;
      return this;
    }

    public Builder canonicalizeHostName(boolean canonicalize) {
      this.canonicalizeHostName = canonicalize;
      return this;
    }

    public Builder kerberosPrincipal(String principal) {
      this.kerberosPrincipal = principal;
      return this;
    }

    public Builder kerberosKeytab(Path keytab) {
      this.kerberosKeytab = keytab;
      return this;
    }

    /** Shorthand for a keytab login. */
    public Builder kerberosLogin(String principal, Path keytab) {
      return kerberosPrincipal(principal).kerberosKeytab(keytab);
    }

    public Builder renewalPeriod(Duration period) {
      this.renewalPeriod = Objects.requireNonNull(period);
      return this;
    }

    public Builder delegationToken(DelegationToken token) {
      this.delegationToken = token;
      return this;
    }

    public Builder delegationTokenSecrets(DelegationTokenSecrets secrets) {
      this.delegationTokenSecrets = secrets;
      return this;
    }

    public Builder userImpersonation(String rules) {
      this.userImpersonation = rules == null ? "" : rules.trim();
      return this;
    }

    public Builder hostImpersonation(String rules) {
      this.hostImpersonation = rules == null ? "" : rules.trim();
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    public Builder readTimeout(Duration timeout) {
      this.readTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    public Builder handshakeTimeout(Duration timeout) {
      this.handshakeTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    public Builder maxFrameSize(long bytes) {
      this.maxFrameSize = bytes;
      return this;
    }

    public Builder maxNegotiationMessageSize(long bytes) {
      this.maxNegotiationMessageSize = bytes;
      return this;
    }

    /** Validates every setting and returns the immutable configuration. */
    public SecurityConfig build() {
      TlsSettings tls = new TlsSettings(tlsEngine, validProtocols(), validCipherSuites(), allowWeakCipherSuites,
          store(ConfigProperty.TLS_KEYSTORE_PATH, keyStorePath, keyStoreType, keyStorePassword, keyStoreAlias,
              ConfigProperty.TLS_KEYSTORE_PASSWORD),
          store(ConfigProperty.TLS_TRUSTSTORE_PATH, trustStorePath, trustStoreType, trustStorePassword, null,
              ConfigProperty.TLS_TRUSTSTORE_PASSWORD),
          validClientAuth(), hostnameVerification, principalMapping,
          nonNegative(ConfigProperty.TLS_RELOAD_INTERVAL, tlsReloadInterval), Optional.ofNullable(sslContextFactory));
      SaslSettings sasl = new SaslSettings(saslMechanism, validQop(), digestMinStrength, validPrimary(),
          Optional.ofNullable(validHost()), canonicalizeHostName,
          Optional.ofNullable(kerberosPrincipal), Optional.ofNullable(validKeytab()),
          positive(ConfigProperty.SASL_KERBEROS_RENEWAL_PERIOD, renewalPeriod),
          Optional.ofNullable(delegationToken), Optional.ofNullable(delegationTokenSecrets),
          userImpersonation, hostImpersonation);
      Timeouts timeouts = new Timeouts(positive(ConfigProperty.TIMEOUT_CONNECT, connectTimeout),
          nonNegative(ConfigProperty.TIMEOUT_READ, readTimeout),
          positive(ConfigProperty.TIMEOUT_HANDSHAKE, handshakeTimeout));
      int frame = sizeWithin(ConfigProperty.LIMIT_MAX_FRAME_SIZE, maxFrameSize, MIN_FRAME_SIZE, MAX_FRAME_SIZE);
      int negotiation = sizeWithin(ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE, maxNegotiationMessageSize,
          MIN_FRAME_SIZE, frame);
      SecurityConfig config = new SecurityConfig(mode, tls, sasl, timeouts, new Limits(frame, negotiation));
      logWeakSuites(tls.cipherSuites());
      return config;
    }

    private List<String> validProtocols() {
      String key = ConfigProperty.TLS_PROTOCOLS.key();
      if (tlsProtocols.isEmpty()) {
        throw new ConfigException(key, "empty; give " + TlsVersions.someOf());
      }
      List<String> seen = new ArrayList<>();
      for (String p : tlsProtocols) {
        if (!TlsVersions.ACCEPTED.contains(p)) {
          throw new ConfigException(key, "'" + p + "' is not accepted; accepted values: " + TlsVersions.listed()
              + " (older versions are insecure)");
        }
        if (seen.contains(p)) {
          throw new ConfigException(key, "'" + p + "' is listed twice");
        }
        seen.add(p);
      }
      return seen;
    }

    private List<String> validCipherSuites() {
      List<String> weak = new ArrayList<>();
      for (String suite : tlsCipherSuites) {
        if (!suite.matches("[A-Z0-9_]+")) {
          throw new ConfigException(ConfigProperty.TLS_CIPHER_SUITES.key(), "'" + suite
              + "' is not a cipher suite name; use IANA names such as TLS_AES_128_GCM_SHA256");
        }
        if (!CipherSuites.isAeadWithForwardSecrecy(suite)) {
          weak.add(suite);
        }
      }
      if (!weak.isEmpty() && !allowWeakCipherSuites) {
        boolean one = weak.size() == 1;
        // The text does not repeat its key, so Accumulo's mapping can report it under rpc.ssl.cipher.suites.
        throw new ConfigException(ConfigProperty.TLS_CIPHER_SUITES.key(), String.join(", ", weak)
            + (one ? " lacks" : " lack") + " AEAD encryption or forward secrecy (securethrift accepts only "
            + CipherSuites.RULE + "); remove " + (one ? "it" : "them") + ", or set "
            + ConfigProperty.TLS_ALLOW_WEAK_CIPHER_SUITES.key() + "=true for peers that support nothing better");
      }
      return tlsCipherSuites;
    }

    /** Warns once per JVM, and only about a configuration that was accepted, that weak suites are in use. */
    private static void logWeakSuites(List<String> suites) {
      List<String> weak = suites.stream().filter(s -> !CipherSuites.isAeadWithForwardSecrecy(s))
          .collect(Collectors.toList());
      if (!weak.isEmpty() && WEAK_SUITES_LOGGED.compareAndSet(false, true)) {
        LOG.warn("{}=true: enabling {}, without AEAD encryption or forward secrecy; use them only for peers that"
            + " support nothing better", ConfigProperty.TLS_ALLOW_WEAK_CIPHER_SUITES.key(), weak);
      }
    }

    /**
     * A server that asks for client certificates must name the CA that issues them: without a trust store the JVM's
     * default one, the public CAs, would vouch for clients, and the names in their certificates would become
     * principals. Checked whenever TLS is on, not only when a server is created, because one configuration often
     * describes both sides of a node.
     */
    private ClientAuth validClientAuth() {
      if (mode.usesTls() && clientAuth != ClientAuth.NONE && trustStorePath == null) {
        String trustKey = ConfigProperty.TLS_TRUSTSTORE_PATH.key();
        throw new ConfigException(ConfigProperty.TLS_CLIENT_AUTH.key(), "'" + clientAuth + "' asks TLS clients for"
            + " certificates, but " + trustKey + " is empty, so the JVM's default trust store (the public CAs) would"
            + " vouch for them and their names would become principals; set " + trustKey + " to the trust store"
            + " holding the CA that issues client certificates");
      }
      return clientAuth;
    }

    private static Optional<StoreLocation> store(ConfigProperty pathKey, Path path, StoreType type, Secret password,
        String alias, ConfigProperty passwordKey) {
      if (path == null) {
        if (password != null) {
          throw new ConfigException(passwordKey.key(),
              "set, but " + pathKey.key() + " is not; set the store's path too");
        }
        return Optional.empty();
      }
      readableFile(pathKey.key(), path);
      return Optional.of(new StoreLocation(path, type == null ? StoreType.fromFileName(path) : type, password, alias));
    }

    private List<QualityOfProtection> validQop() {
      if (qop.isEmpty()) {
        throw new ConfigException(ConfigProperty.SASL_QOP.key(),
            "empty; give one or more of auth, auth-int, auth-conf");
      }
      if (qop.stream().distinct().count() != qop.size()) {
        throw new ConfigException(ConfigProperty.SASL_QOP.key(), "a level is listed twice in " + qop);
      }
      return qop;
    }

    private String validPrimary() {
      String key = ConfigProperty.SASL_SERVER_PRIMARY.key();
      if (serverPrimary == null || serverPrimary.isBlank()) {
        throw new ConfigException(key, "empty; give the primary of the server principal, for example accumulo");
      }
      if (serverPrimary.contains("/") || serverPrimary.contains("@")) {
        throw new ConfigException(key, "'" + serverPrimary + "' must be the primary alone, without /host or @REALM");
      }
      return serverPrimary.trim();
    }

    private String validHost() {
      if (serverHost != null && (serverHost.contains("/") || serverHost.contains("@"))) {
        throw new ConfigException(ConfigProperty.SASL_SERVER_HOST.key(), "'" + serverHost
            + "' must be a host name alone, without primary/ or @REALM");
      }
      return serverHost;
    }

    private Path validKeytab() {
      if (kerberosKeytab != null && kerberosPrincipal == null) {
        throw new ConfigException(ConfigProperty.SASL_KERBEROS_PRINCIPAL.key(), "empty, but "
            + ConfigProperty.SASL_KERBEROS_KEYTAB.key() + " is set; give the principal whose keys the keytab holds");
      }
      if (kerberosPrincipal != null && kerberosKeytab == null) {
        throw new ConfigException(ConfigProperty.SASL_KERBEROS_KEYTAB.key(), "empty, but "
            + ConfigProperty.SASL_KERBEROS_PRINCIPAL.key() + " is set; give the keytab to log in from");
      }
      if (kerberosKeytab != null) {
        readableFile(ConfigProperty.SASL_KERBEROS_KEYTAB.key(), kerberosKeytab);
      }
      return kerberosKeytab;
    }

    private static void readableFile(String key, Path path) {
      if (!Files.exists(path)) {
        throw new ConfigException(key, "file " + path + " does not exist");
      }
      if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
        throw new ConfigException(key, path + " is not a readable file");
      }
    }

    private static Duration positive(ConfigProperty p, Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new ConfigException(p.key(), "'" + Values.formatDuration(d) + "' must be greater than zero");
      }
      return d;
    }

    private static Duration nonNegative(ConfigProperty p, Duration d) {
      if (d.isNegative()) {
        throw new ConfigException(p.key(), "'" + Values.formatDuration(d) + "' must not be negative");
      }
      return d;
    }

    private static int sizeWithin(ConfigProperty p, long bytes, long min, long max) {
      if (bytes < min || bytes > max) {
        throw new ConfigException(p.key(), bytes + " bytes is outside the accepted range " + Values.formatSize(min)
            + " to " + max + " bytes");
      }
      return (int) bytes;
    }
  }
}
