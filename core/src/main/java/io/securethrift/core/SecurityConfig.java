package io.securethrift.core;

import io.securethrift.core.spi.TlsEngineProvider;
import io.securethrift.core.transport.ServerTransportFactory;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import javax.crypto.Cipher;
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
  /**
   * Port unification's largest frame plus one, 352M: every smaller frame's length starts below 0x16, the first byte
   * of a TLS handshake.
   */
  static final long PLAINTEXT_FRAME_BOUND = 0x16L << 24;

  private final SecurityMode mode;
  private final TlsSettings tls;
  private final SaslSettings sasl;
  private final Timeouts timeouts;
  private final Limits limits;
  private final AuditFormat auditFormat;

  private final ServerLimits server;

  private SecurityConfig(SecurityMode mode, TlsSettings tls, SaslSettings sasl, Timeouts timeouts, Limits limits,
      AuditFormat auditFormat, ServerLimits server) {
    this.server = server;
    this.mode = mode;
    this.tls = tls;
    this.sasl = sasl;
    this.timeouts = timeouts;
    this.limits = limits;
    this.auditFormat = auditFormat;
  }

  /** A builder starting from every setting's default, which {@link ConfigProperty} lists. */
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

  /** How connections are secured. */
  public SecurityMode mode() {
    return mode;
  }

  /**
   * Whether the FIPS profile is on ({@code securethrift.fips}): {@link Builder#build()} then refused every setting
   * outside FIPS 140-3 approval, and the TLS layer enables and accepts only {@link CipherSuites#FIPS} and RSA (2048
   * bits or more) and P-256, P-384 or P-521 keys. It restricts what securethrift chooses and accepts; a validated
   * cryptographic module is the JVM's to provide.
   */
  public boolean fips() {
    return tls.fips();
  }

  /** TLS settings; meaningful when {@link SecurityMode#usesTls()}. */
  public TlsSettings tls() {
    return tls;
  }

  /** SASL settings; meaningful when {@link SecurityMode#usesSasl()}. */
  public SaslSettings sasl() {
    return sasl;
  }

  /** Connect, read and handshake timeouts. */
  public Timeouts timeouts() {
    return timeouts;
  }

  /** Frame and negotiation message size limits. */
  public Limits limits() {
    return limits;
  }

  /** The layout of a server's audit log lines ({@code securethrift.audit.format}). */
  public AuditFormat auditFormat() {
    return auditFormat;
  }

  /** Connection limits, idle timeout and write-buffer marks of a non-blocking server. */
  public ServerLimits server() {
    return server;
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
    private boolean fips;
    private TlsEngine tlsEngine;
    private TlsEngineProvider suppliedTlsEngine;
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
    private IdentityChange tlsReloadIdentityChange;
    private List<Path> crlFiles;
    private OcspMode ocsp;
    private URI ocspResponder;
    private Duration ocspCacheMax;
    private boolean ocspStapling;
    private SaslMechanism saslMechanism;
    private List<QualityOfProtection> qop;
    private SaslPrivacy saslPrivacy;
    private SaslChannelBinding saslChannelBinding;
    private Provider saslPrivacyProvider;
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
    private Duration clientConnectionMaxAge;
    private long maxFrameSize;
    private long maxNegotiationMessageSize;
    private AuditFormat auditFormat;
    private int maxConnections;
    private int maxThreads;
    private int maxUnauthenticatedConnections;
    private int maxConnectionsPerAddress;
    private int maxUnauthenticatedConnectionsPerAddress;
    private int ipv6Prefix;
    private int connectionRatePerAddress;
    private int connectionRateMax;
    private Duration serverIdleTimeout;
    private Duration serverConnectionMaxAge;
    private boolean portUnification;
    private boolean closeAtTicketEnd;
    private long writeBufferLow;
    private long writeBufferHigh;
    private long writeBufferFatal;
    private long pendingRepliesMax;

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
      fips = t.fips();
      tlsEngine = t.engineSetting();
      suppliedTlsEngine = t.suppliedEngine().orElse(null);
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
      tlsReloadIdentityChange = t.reloadIdentityChange();
      crlFiles = t.crlFiles();
      ocsp = t.ocsp();
      ocspResponder = t.ocspResponder().orElse(null);
      ocspCacheMax = t.ocspCacheMax();
      ocspStapling = t.ocspStapling();
      sslContextFactory = t.sslContextFactory().orElse(null);
      saslMechanism = a.mechanism();
      qop = a.qop();
      saslPrivacy = a.privacy();
      saslChannelBinding = a.channelBinding();
      saslPrivacyProvider = a.privacyProvider().orElse(null);
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
      clientConnectionMaxAge = c.timeouts.clientConnectionMaxAge();
      maxFrameSize = c.limits.maxFrameSize();
      maxNegotiationMessageSize = c.limits.maxNegotiationMessageSize();
      auditFormat = c.auditFormat;
      maxConnections = c.server.maxConnections();
      maxThreads = c.server.maxThreads();
      maxUnauthenticatedConnections = c.server.maxUnauthenticatedConnections();
      maxConnectionsPerAddress = c.server.maxConnectionsPerAddress();
      maxUnauthenticatedConnectionsPerAddress = c.server.maxUnauthenticatedConnectionsPerAddress();
      ipv6Prefix = c.server.ipv6Prefix();
      connectionRatePerAddress = c.server.connectionRatePerAddress();
      connectionRateMax = c.server.connectionRateMax();
      serverIdleTimeout = c.server.idleTimeout();
      serverConnectionMaxAge = c.server.connectionMaxAge();
      portUnification = c.server.portUnification();
      closeAtTicketEnd = c.server.closeAtTicketEnd();
      writeBufferLow = c.server.writeBufferLow();
      writeBufferHigh = c.server.writeBufferHigh();
      writeBufferFatal = c.server.writeBufferFatal();
      pendingRepliesMax = c.server.pendingRepliesMax();
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

    /** How connections are secured ({@code securethrift.mode}); default {@link SecurityMode#NONE}. */
    public Builder mode(SecurityMode mode) {
      this.mode = Objects.requireNonNull(mode);
      return this;
    }

    /**
     * The FIPS profile ({@code securethrift.fips}); default false. When true, {@link #build()} refuses cipher suites
     * outside {@link CipherSuites#FIPS}, weak suites, DIGEST-MD5 (mechanism, delegation tokens or their secrets) and
     * AES-GCM SASL privacy (its keys are agreed with X25519), each with a {@link ConfigException} saying why.
     */
    public Builder fips(boolean fips) {
      this.fips = fips;
      return this;
    }

    /**
     * Which TLS engine runs ({@code securethrift.tls.engine}): {@link TlsEngine#AUTO} (the default) or a contributed
     * engine's name. With TLS on, {@link #build()} resolves {@code auto} and refuses an engine that cannot run here.
     */
    public Builder tlsEngine(TlsEngine engine) {
      this.tlsEngine = Objects.requireNonNull(engine);
      this.suppliedTlsEngine = null;
      return this;
    }

    /**
     * This configuration's own TLS engine, contributed by no module: it runs this configuration only, and
     * {@code toBuilder()} carries it (properties name it by its token, which reads back only if a module contributes
     * that token). {@link #build()} refuses it, like a named engine, if it cannot run here.
     */
    public Builder tlsEngine(TlsEngineProvider engine) {
      this.tlsEngine = TlsEngine.of(engine.token());
      this.suppliedTlsEngine = engine;
      return this;
    }

    /** Enabled TLS versions, newest preferred ({@code securethrift.tls.protocols}); default TLSv1.3 and TLSv1.2. */
    public Builder tlsProtocols(List<String> protocols) {
      this.tlsProtocols = List.copyOf(protocols);
      return this;
    }

    /**
     * Enabled cipher suites by IANA name ({@code securethrift.tls.cipher.suites}); default empty: the engine's suites
     * that {@link CipherSuites} accepts.
     */
    public Builder tlsCipherSuites(List<String> suites) {
      this.tlsCipherSuites = List.copyOf(suites);
      return this;
    }

    /**
     * Whether {@link #tlsCipherSuites} may name suites outside {@link CipherSuites}' rule; only for peers that support
     * nothing better ({@code securethrift.tls.allow.weak.cipher.suites}); default false.
     */
    public Builder allowWeakCipherSuites(boolean allow) {
      this.allowWeakCipherSuites = allow;
      return this;
    }

    /**
     * This side's certificate chain and private key ({@code securethrift.tls.keystore.path}); default null: none.
     * Type and password may follow; a null path clears the key store.
     */
    public Builder keyStorePath(Path path) {
      this.keyStorePath = path;
      return this;
    }

    /**
     * Password of the key store, or of a PEM private key ({@code securethrift.tls.keystore.password}); default none.
     */
    public Builder keyStorePassword(Secret password) {
      this.keyStorePassword = password;
      return this;
    }

    /** Key store format ({@code securethrift.tls.keystore.type}); default null: detected from the file. */
    public Builder keyStoreType(StoreType type) {
      this.keyStoreType = type;
      return this;
    }

    /**
     * Which key entry to use when the key store holds several ({@code securethrift.tls.keystore.alias}); default
     * none: the only one.
     */
    public Builder keyStoreAlias(String alias) {
      this.keyStoreAlias = alias;
      return this;
    }

    /** Shorthand for a key store's path, type (null: detect) and password (null: none). */
    public Builder keyStore(Path path, StoreType type, Secret password) {
      return keyStorePath(path).keyStoreType(type).keyStorePassword(password);
    }

    /**
     * Certificates this side trusts ({@code securethrift.tls.truststore.path}); default null: the JVM's default
     * trust store.
     */
    public Builder trustStorePath(Path path) {
      this.trustStorePath = path;
      return this;
    }

    /** Password of the trust store ({@code securethrift.tls.truststore.password}); default none. */
    public Builder trustStorePassword(Secret password) {
      this.trustStorePassword = password;
      return this;
    }

    /** Trust store format ({@code securethrift.tls.truststore.type}); default null: detected from the file. */
    public Builder trustStoreType(StoreType type) {
      this.trustStoreType = type;
      return this;
    }

    /** Shorthand for a trust store's path, type (null: detect) and password (null: none). */
    public Builder trustStore(Path path, StoreType type, Secret password) {
      return trustStorePath(path).trustStoreType(type).trustStorePassword(password);
    }

    /**
     * Whether a TLS server asks for client certificates ({@code securethrift.tls.client.auth}); default
     * {@link ClientAuth#NONE}.
     */
    public Builder clientAuth(ClientAuth clientAuth) {
      this.clientAuth = Objects.requireNonNull(clientAuth);
      return this;
    }

    /**
     * Whether a TLS client checks the server certificate's names ({@code securethrift.tls.hostname.verification});
     * default true.
     */
    public Builder hostnameVerification(boolean verify) {
      this.hostnameVerification = verify;
      return this;
    }

    /**
     * How a TLS server names a client from its certificate ({@code securethrift.tls.principal.mapping}); default
     * {@link PrincipalMapping#CN}.
     */
    public Builder principalMapping(PrincipalMapping mapping) {
      this.principalMapping = Objects.requireNonNull(mapping);
      return this;
    }

    /**
     * How often key, trust and CRL files are checked for changes ({@code securethrift.tls.reload.interval}); default
     * 10 seconds; zero disables reloading.
     */
    public Builder tlsReloadInterval(Duration interval) {
      this.tlsReloadInterval = Objects.requireNonNull(interval);
      return this;
    }

    /**
     * Whether a reload may replace this side's certificate with one naming another identity (subject, set of subject
     * alternative names, first DNS, e-mail or URI name) ({@code securethrift.tls.reload.identity.change}); default
     * {@link IdentityChange#REFUSE}: the previous material stays and a warning says why.
     */
    public Builder tlsReloadIdentityChange(IdentityChange change) {
      this.tlsReloadIdentityChange = Objects.requireNonNull(change);
      return this;
    }

    /**
     * CRL files (PEM or DER) the peer's certificates are checked against
     * ({@code securethrift.tls.revocation.crl.files}); default empty: none.
     */
    public Builder crlFiles(List<Path> files) {
      this.crlFiles = List.copyOf(files);
      return this;
    }

    /**
     * Whether and how strictly the peer's certificates are checked with OCSP
     * ({@code securethrift.tls.revocation.ocsp}); default {@link OcspMode#OFF}.
     */
    public Builder ocsp(OcspMode mode) {
      this.ocsp = Objects.requireNonNull(mode);
      return this;
    }

    /**
     * The OCSP responder asked about every certificate ({@code securethrift.tls.revocation.ocsp.responder}); default
     * null: each certificate's own, from its Authority Information Access extension.
     */
    public Builder ocspResponder(URI responder) {
      this.ocspResponder = responder;
      return this;
    }

    /**
     * How long, at most, an OCSP response is reused for later handshakes, within its own nextUpdate
     * ({@code securethrift.tls.revocation.ocsp.cache.max}); default one hour; zero disables the cache.
     */
    public Builder ocspCacheMax(Duration max) {
      this.ocspCacheMax = Objects.requireNonNull(max);
      return this;
    }

    /**
     * Whether a TLS server staples the OCSP response for its own certificate to its handshakes
     * ({@code securethrift.tls.revocation.ocsp.stapling}); default false. Engines that cannot are refused when the
     * server transport is created.
     */
    public Builder ocspStapling(boolean staple) {
      this.ocspStapling = staple;
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

    /** SASL mechanism ({@code securethrift.sasl.mechanism}); default {@link SaslMechanism#GSSAPI}. */
    public Builder saslMechanism(SaslMechanism mechanism) {
      this.saslMechanism = Objects.requireNonNull(mechanism);
      return this;
    }

    /**
     * Acceptable QOP levels, most preferred first ({@code securethrift.sasl.qop}); default
     * {@link QualityOfProtection#AUTH_CONF} alone.
     */
    public Builder qop(List<QualityOfProtection> qop) {
      this.qop = List.copyOf(qop);
      return this;
    }

    /** Acceptable QOP levels, most preferred first; see {@link #qop(List)}. */
    public Builder qop(QualityOfProtection... qop) {
      return qop(List.of(qop));
    }

    /**
     * How {@code auth-conf} encrypts the data phase ({@code securethrift.sasl.privacy}); default
     * {@link SaslPrivacy#GSS}. Anything else needs {@code auth-conf} among the QOP levels.
     */
    public Builder saslPrivacy(SaslPrivacy privacy) {
      this.saslPrivacy = Objects.requireNonNull(privacy);
      return this;
    }

    /**
     * Whether Kerberos negotiations in mode {@code sasl-over-tls} bind to the TLS connection under them
     * ({@code securethrift.sasl.channel.binding}); default {@link SaslChannelBinding#PREFER}.
     */
    public Builder saslChannelBinding(SaslChannelBinding channelBinding) {
      this.saslChannelBinding = Objects.requireNonNull(channelBinding);
      return this;
    }

    /**
     * The JCA provider of the AES/GCM/NoPadding cipher that seals and opens AES-GCM records
     * ({@code securethrift.sasl.privacy} other than {@code gss}) on this configuration's connections; default none
     * (null): the first provider in the JVM's list ({@code java.security}) that has one, normally the JDK's SunJCE.
     * Pass Conscrypt's (the one the TLS engine uses: {@code config.tls().engineProvider().provider()} of a
     * configuration on engine {@code conscrypt}, or one {@code Conscrypt.newProvider()} shared by every configuration)
     * for BoringSSL's AES-GCM without installing Conscrypt in the JVM's list. The provider changes nothing on the
     * wire: either side may use any provider. Code, not a property: {@link #toProperties()} leaves it out.
     */
    public Builder saslPrivacyProvider(Provider provider) {
      this.saslPrivacyProvider = provider;
      return this;
    }

    /**
     * The weakest cipher a DIGEST-MD5 {@code auth-conf} connection may use
     * ({@code securethrift.sasl.digest.min.strength}); default {@link CipherStrength#HIGH}.
     */
    public Builder digestMinStrength(CipherStrength strength) {
      this.digestMinStrength = Objects.requireNonNull(strength);
      return this;
    }

    /**
     * Kerberos primary of the server principal ({@code securethrift.sasl.kerberos.server.primary}); default
     * {@code accumulo}.
     */
    public Builder serverPrimary(String primary) {
      this.serverPrimary = primary == null ? null : primary.trim();
      return this;
    }

    /**
     * Host part of the server principal ({@code securethrift.sasl.server.host}); default null: the host the
     * client connects to.
     */
    public Builder serverHost(String host) {
      this.serverHost = host;
      return this;
    }

    /**
     * Whether a client resolves the server host to its canonical name first
     * ({@code securethrift.sasl.canonicalize.hostname}); default false.
     */
    public Builder canonicalizeHostName(boolean canonicalize) {
      this.canonicalizeHostName = canonicalize;
      return this;
    }

    /**
     * Principal to log in as from the keytab ({@code securethrift.sasl.kerberos.principal}); default null: the
     * caller's existing Kerberos login.
     */
    public Builder kerberosPrincipal(String principal) {
      this.kerberosPrincipal = principal;
      return this;
    }

    /** Keytab holding the principal's keys ({@code securethrift.sasl.kerberos.keytab}); default none. */
    public Builder kerberosKeytab(Path keytab) {
      this.kerberosKeytab = keytab;
      return this;
    }

    /** Shorthand for a keytab login. */
    public Builder kerberosLogin(String principal, Path keytab) {
      return kerberosPrincipal(principal).kerberosKeytab(keytab);
    }

    /**
     * How often the Kerberos login is checked and renewed ({@code securethrift.sasl.kerberos.renewal.period});
     * default 30 seconds.
     */
    public Builder renewalPeriod(Duration period) {
      this.renewalPeriod = Objects.requireNonNull(period);
      return this;
    }

    /** The delegation token a DIGEST-MD5 client authenticates with; default none. Code, not a property. */
    public Builder delegationToken(DelegationToken token) {
      this.delegationToken = token;
      return this;
    }

    /**
     * How a DIGEST-MD5 server looks up the secret of a presented token; default none, which a DIGEST-MD5 server
     * refuses. Code, not a property.
     */
    public Builder delegationTokenSecrets(DelegationTokenSecrets secrets) {
      this.delegationTokenSecrets = secrets;
      return this;
    }

    /**
     * Who may act for whom, in Accumulo's syntax ({@code securethrift.sasl.impersonation.users}); default empty:
     * nobody.
     */
    public Builder userImpersonation(String rules) {
      this.userImpersonation = rules == null ? "" : rules.trim();
      return this;
    }

    /**
     * From which hosts each impersonating principal may connect ({@code securethrift.sasl.impersonation.hosts});
     * default empty.
     */
    public Builder hostImpersonation(String rules) {
      this.hostImpersonation = rules == null ? "" : rules.trim();
      return this;
    }

    /** How long a client waits for TCP to connect ({@code securethrift.timeout.connect}); default 10 seconds. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /**
     * How long either side waits for the next bytes of a message ({@code securethrift.timeout.read}); default
     * 120 seconds; zero waits forever.
     */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /**
     * Deadline for the TLS handshake and SASL negotiation ({@code securethrift.timeout.handshake}); default
     * 10 seconds.
     */
    public Builder handshakeTimeout(Duration timeout) {
      this.handshakeTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /** Largest data frame either side accepts ({@code securethrift.limit.max.frame.size}); default 16 MiB. */
    public Builder maxFrameSize(long bytes) {
      this.maxFrameSize = bytes;
      return this;
    }

    /**
     * Largest SASL negotiation message accepted before authentication
     * ({@code securethrift.limit.max.negotiation.message.size}); default 64 KiB.
     */
    public Builder maxNegotiationMessageSize(long bytes) {
      this.maxNegotiationMessageSize = bytes;
      return this;
    }

    /** Layout of a server's audit log lines ({@code securethrift.audit.format}); default {@link AuditFormat#TEXT}. */
    public Builder auditFormat(AuditFormat format) {
      this.auditFormat = Objects.requireNonNull(format);
      return this;
    }

    /** Non-blocking server: open connections at most ({@code securethrift.server.max.connections}); default 10000. */
    public Builder maxConnections(int connections) {
      this.maxConnections = connections;
      return this;
    }

    /**
     * Thread-pool server ({@link ServerTransportFactory#threadPoolServerArgs}): worker threads, and so connections, at
     * most ({@code securethrift.server.max.threads}); default 256.
     */
    public Builder maxThreads(int threads) {
      this.maxThreads = threads;
      return this;
    }

    /**
     * Non-blocking server: connections still in their handshakes at most
     * ({@code securethrift.server.max.unauthenticated.connections}); default 1000.
     */
    public Builder maxUnauthenticatedConnections(int connections) {
      this.maxUnauthenticatedConnections = connections;
      return this;
    }

    /**
     * Non-blocking server: open connections from one remote address at most
     * ({@code securethrift.server.max.connections.per.address}); default 1000.
     */
    public Builder maxConnectionsPerAddress(int connections) {
      this.maxConnectionsPerAddress = connections;
      return this;
    }

    /**
     * Non-blocking server: connections still in their handshakes from one remote address at most
     * ({@code securethrift.server.max.unauthenticated.connections.per.address}); default 64.
     */
    public Builder maxUnauthenticatedConnectionsPerAddress(int connections) {
      this.maxUnauthenticatedConnectionsPerAddress = connections;
      return this;
    }

    /**
     * The leading bits of an IPv6 address the per-address limits count as one address
     * ({@code securethrift.server.address.ipv6.prefix}); default 64.
     */
    public Builder ipv6Prefix(int bits) {
      this.ipv6Prefix = bits;
      return this;
    }

    /**
     * Both server models: new connections per second from one remote address, with bursts of one second's worth
     * ({@code securethrift.server.connection.rate.per.address}); default 0, no limit.
     */
    public Builder connectionRatePerAddress(int perSecond) {
      this.connectionRatePerAddress = perSecond;
      return this;
    }

    /**
     * Both server models: new connections per second in all, with bursts of one second's worth
     * ({@code securethrift.server.connection.rate.max}); default 0, no limit.
     */
    public Builder connectionRateMax(int perSecond) {
      this.connectionRateMax = perSecond;
      return this;
    }

    /**
     * Non-blocking server: how long an authenticated connection may stay silent between calls
     * ({@code securethrift.server.idle.timeout}); default 600 seconds; zero keeps it open.
     */
    public Builder serverIdleTimeout(Duration timeout) {
      this.serverIdleTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /**
     * Both server models: how long an authenticated connection may live before it is closed between calls
     * ({@code securethrift.server.connection.max.age}); default zero, no limit.
     */
    public Builder serverConnectionMaxAge(Duration age) {
      this.serverConnectionMaxAge = Objects.requireNonNull(age);
      return this;
    }

    /**
     * Both server models: whether the TLS port also serves plaintext clients, told apart by their first byte, until
     * it is switched to TLS only ({@code securethrift.server.port.unification}); default false.
     */
    public Builder portUnification(boolean unify) {
      this.portUnification = unify;
      return this;
    }

    /**
     * Both server models: whether a Kerberos-authenticated connection is closed between calls once its client's
     * service ticket has ended ({@code securethrift.server.kerberos.close.at.ticket.end}); default true.
     */
    public Builder closeAtTicketEnd(boolean close) {
      this.closeAtTicketEnd = close;
      return this;
    }

    /**
     * How long a client uses a connection before its next call opens a new one
     * ({@code securethrift.client.connection.max.age}); default zero, no limit.
     */
    public Builder clientConnectionMaxAge(Duration age) {
      this.clientConnectionMaxAge = Objects.requireNonNull(age);
      return this;
    }

    /** Non-blocking server: low write-buffer watermark ({@code securethrift.server.write.buffer.low}); 32 KiB. */
    public Builder writeBufferLow(long bytes) {
      this.writeBufferLow = bytes;
      return this;
    }

    /** Non-blocking server: high write-buffer watermark ({@code securethrift.server.write.buffer.high}); 64 KiB. */
    public Builder writeBufferHigh(long bytes) {
      this.writeBufferHigh = bytes;
      return this;
    }

    /**
     * Non-blocking server: pending reply bytes over which a connection is closed
     * ({@code securethrift.server.write.buffer.fatal}); default 64 MiB.
     */
    public Builder writeBufferFatal(long bytes) {
      this.writeBufferFatal = bytes;
      return this;
    }

    /**
     * Non-blocking server: bytes of replies waiting for their peers across all connections, over which the one that
     * has waited longest is closed ({@code securethrift.server.pending.replies.max}); default 64 MiB.
     */
    public Builder pendingRepliesMax(long bytes) {
      this.pendingRepliesMax = bytes;
      return this;
    }

    /** Validates every setting and returns the immutable configuration. */
    public SecurityConfig build() {
      if (fips) {
        checkFips();
      }
      Optional<TlsEngineProvider> supplied = Optional.ofNullable(suppliedTlsEngine);
      // Resolved once here, so every user of the configuration sees one engine; a plain configuration may name an
      // engine that does not run here, because it never runs one.
      TlsEngineProvider engine = mode.usesTls() ? TlsEngineCatalog.resolve(tlsEngine, supplied) : null;
      TlsSettings tls = new TlsSettings(fips, tlsEngine, supplied, engine,
          ConfigProperty.TLS_PROTOCOLS.valid(tlsProtocols), validCipherSuites(), allowWeakCipherSuites,
          store(ConfigProperty.TLS_KEYSTORE_PATH, keyStorePath, keyStoreType, keyStorePassword, keyStoreAlias,
              ConfigProperty.TLS_KEYSTORE_PASSWORD),
          store(ConfigProperty.TLS_TRUSTSTORE_PATH, trustStorePath, trustStoreType, trustStorePassword, null,
              ConfigProperty.TLS_TRUSTSTORE_PASSWORD),
          validClientAuth(), hostnameVerification, principalMapping,
          ConfigProperty.TLS_RELOAD_INTERVAL.valid(tlsReloadInterval), tlsReloadIdentityChange,
          ConfigProperty.TLS_REVOCATION_CRL_FILES.valid(crlFiles), ocsp, Optional.ofNullable(validOcspResponder()),
          ConfigProperty.TLS_REVOCATION_OCSP_CACHE_MAX.valid(ocspCacheMax), ocspStapling,
          Optional.ofNullable(sslContextFactory));
      SaslSettings sasl = new SaslSettings(saslMechanism, ConfigProperty.SASL_QOP.valid(qop), validPrivacy(),
          validChannelBinding(), Optional.ofNullable(validPrivacyProvider()), digestMinStrength,
          ConfigProperty.SASL_SERVER_PRIMARY.valid(serverPrimary),
          Optional.ofNullable(ConfigProperty.SASL_SERVER_HOST.valid(serverHost)), canonicalizeHostName,
          Optional.ofNullable(ConfigProperty.SASL_KERBEROS_PRINCIPAL.valid(kerberosPrincipal)),
          Optional.ofNullable(validKeytab()),
          ConfigProperty.SASL_KERBEROS_RENEWAL_PERIOD.valid(renewalPeriod),
          Optional.ofNullable(delegationToken), Optional.ofNullable(delegationTokenSecrets),
          userImpersonation, hostImpersonation);
      Timeouts timeouts = new Timeouts(ConfigProperty.TIMEOUT_CONNECT.valid(connectTimeout),
          ConfigProperty.TIMEOUT_READ.valid(readTimeout), ConfigProperty.TIMEOUT_HANDSHAKE.valid(handshakeTimeout),
          validClientConnectionMaxAge());
      int frame = (int) (long) ConfigProperty.LIMIT_MAX_FRAME_SIZE.valid(maxFrameSize);
      int negotiation = validNegotiationSize(frame);
      SecurityConfig config = new SecurityConfig(mode, tls, sasl, timeouts, new Limits(frame, negotiation),
          auditFormat, validServerLimits());
      logWeakSuites(tls.cipherSuites());
      return config;
    }

    /** A responder with OCSP off would silently do nothing; the operator meant to check certificates. */
    private URI validOcspResponder() {
      ConfigProperty.TLS_REVOCATION_OCSP_RESPONDER.valid(ocspResponder);
      if (ocspResponder != null && ocsp == OcspMode.OFF) {
        throw new ConfigException(ConfigProperty.TLS_REVOCATION_OCSP_RESPONDER.key(), "set, but "
            + ConfigProperty.TLS_REVOCATION_OCSP.key() + " is off, so no responder is asked; set it to soft-fail or"
            + " hard-fail, or clear the responder");
      }
      return ocspResponder;
    }

    /**
     * The FIPS profile's refusals, each naming the setting, its value and why. TLS versions need no check here:
     * securethrift.tls.protocols accepts only TLS 1.3 and 1.2 in every profile, and SP 800-52 rev. 2 approves both.
     */
    private void checkFips() {
      String fipsKey = ConfigProperty.FIPS.key();
      List<String> refused = tlsCipherSuites.stream().filter(suite -> !CipherSuites.isFipsApproved(suite))
          .collect(Collectors.toList());
      if (!refused.isEmpty()) {
        String reasons = refused.stream().map(suite -> suite + " (" + fipsRefusal(suite) + ")")
            .collect(Collectors.joining(", "));
        throw new ConfigException(ConfigProperty.TLS_CIPHER_SUITES.key(), reasons + ": " + fipsKey + "=true admits"
            + " only " + CipherSuites.FIPS_RULE + "; remove " + (refused.size() == 1 ? "it" : "them") + ", or set "
            + fipsKey + "=false");
      }
      if (allowWeakCipherSuites) {
        throw new ConfigException(ConfigProperty.TLS_ALLOW_WEAK_CIPHER_SUITES.key(), "true lets the suite list name"
            + " suites outside FIPS approval, which " + fipsKey + "=true refuses; set it to false");
      }
      String mechanismKey = ConfigProperty.SASL_MECHANISM.key();
      String digestWhy = " DIGEST-MD5, which FIPS 140-3 does not approve (MD5 digests, and 3DES, DES or RC4 for"
          + " auth-conf); ";
      if (saslMechanism == SaslMechanism.DIGEST_MD5) {
        throw new ConfigException(mechanismKey, "DIGEST-MD5 is refused by " + fipsKey + "=true:" + digestWhy
            + "use GSSAPI (Kerberos with AES enctypes), or set " + fipsKey + "=false");
      }
      if (delegationToken != null || delegationTokenSecrets != null) {
        boolean token = delegationToken != null;
        throw new ConfigException(mechanismKey, "a delegation token" + (token ? "" : "'s secrets") + " is set"
            + " (SecurityConfig.Builder." + (token ? "delegationToken" : "delegationTokenSecrets") + "), and delegation"
            + " tokens authenticate with" + digestWhy + fipsKey + "=true refuses it; authenticate with Kerberos"
            + " (GSSAPI), or set " + fipsKey + "=false");
      }
      if (saslPrivacy.speaksAesGcm()) {
        throw new ConfigException(ConfigProperty.SASL_PRIVACY.key(), "'" + saslPrivacy + "' agrees its AES-GCM keys"
            + " with X25519, which FIPS 140-3 does not approve for key agreement (SP 800-56A rev. 3 names the NIST"
            + " curves P-256, P-384 and P-521); " + fipsKey + "=true refuses it. Set it to gss: auth-conf is then"
            + " Kerberos's own wrap, AES when krb5.conf permits only AES enctypes");
      }
    }

    /** Why the FIPS profile refuses a suite, in a few words. */
    private static String fipsRefusal(String suite) {
      if (suite.contains("CHACHA20")) {
        return "ChaCha20-Poly1305 is not a FIPS-approved cipher";
      }
      if (suite.contains("3DES") || suite.contains("_DES_") || suite.contains("RC4")) {
        return "3DES, DES and RC4 are not approved";
      }
      if (suite.contains("_CBC_")) {
        return "CBC suites are outside the profile, which admits AEAD (AES-GCM) only";
      }
      if (!suite.startsWith("TLS_ECDHE_") && !CipherSuites.isTls13(suite)) {
        return "its key exchange is not ECDHE";
      }
      return "not on the approved list";
    }

    /** {@code require} has nothing to bind to without TLS under the SASL negotiation. */
    private SaslChannelBinding validChannelBinding() {
      if (saslChannelBinding == SaslChannelBinding.REQUIRE && mode == SecurityMode.SASL) {
        throw new ConfigException(ConfigProperty.SASL_CHANNEL_BINDING.key(), "'require' binds Kerberos to the TLS"
            + " connection under it, but " + ConfigProperty.MODE.key() + " is sasl, which has no TLS; set the mode to"
            + " sasl-over-tls, or set " + ConfigProperty.SASL_CHANNEL_BINDING.key() + "=prefer");
      }
      return saslChannelBinding;
    }

    /** AES-GCM replaces the wrap of auth-conf; at the other levels there is nothing for it to replace. */
    private SaslPrivacy validPrivacy() {
      if (saslPrivacy.speaksAesGcm() && !qop.contains(QualityOfProtection.AUTH_CONF)) {
        throw new ConfigException(ConfigProperty.SASL_PRIVACY.key(), "'" + saslPrivacy + "' replaces the"
            + " encryption of auth-conf, but " + ConfigProperty.SASL_QOP.key() + " is "
            + QualityOfProtection.toSaslProperty(qop) + "; add auth-conf to it or set "
            + ConfigProperty.SASL_PRIVACY.key() + "=gss");
      }
      if (saslPrivacy.speaksAesGcm() && digestMinStrength != CipherStrength.HIGH) {
        throw new ConfigException(ConfigProperty.SASL_DIGEST_MIN_STRENGTH.key(), "'" + digestMinStrength + "' admits"
            + " DIGEST-MD5 ciphers weaker than 3DES, and " + ConfigProperty.SASL_PRIVACY.key() + "=" + saslPrivacy
            + " exchanges its AES-GCM keys under the DIGEST-MD5 cipher, so a weak one would expose them; keep high,"
            + " or set " + ConfigProperty.SASL_PRIVACY.key() + "=gss");
      }
      return saslPrivacy;
    }

    /** A provider without AES-GCM would fail every connection at its key exchange; refused here instead. */
    private Provider validPrivacyProvider() {
      if (saslPrivacyProvider != null) {
        try {
          Cipher.getInstance("AES/GCM/NoPadding", saslPrivacyProvider);
        } catch (GeneralSecurityException e) {
          throw new ConfigException(ConfigProperty.SASL_PRIVACY.key(), "AES-GCM records need the cipher"
              + " AES/GCM/NoPadding, which the provider " + saslPrivacyProvider.getName() + " given to"
              + " saslPrivacyProvider does not offer (" + e.getMessage() + "); give a provider that does (the JDK's"
              + " SunJCE, Conscrypt), or none to use the JVM's provider list");
        }
      }
      return saslPrivacyProvider;
    }

    private List<String> validCipherSuites() {
      List<String> weak = ConfigProperty.TLS_CIPHER_SUITES.valid(tlsCipherSuites).stream()
          .filter(suite -> !CipherSuites.isAeadWithForwardSecrecy(suite)).collect(Collectors.toList());
      if (!weak.isEmpty() && !allowWeakCipherSuites) {
        boolean one = weak.size() == 1;
        // The text does not repeat its key, so Accumulo's mapping can report it under rpc.ssl.cipher.suites.
        throw new ConfigException(ConfigProperty.TLS_CIPHER_SUITES.key(), String.join(", ", weak)
            + (one ? " is not a suite" : " are not suites") + " securethrift accepts (only "
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
        LOG.warn("{}=true: enabling {}, outside securethrift's suite rule (AEAD, ECDHE, certificates); use them only"
            + " for peers that support nothing better", ConfigProperty.TLS_ALLOW_WEAK_CIPHER_SUITES.key(), weak);
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
      pathKey.valid(path);
      return Optional.of(new StoreLocation(path, type == null ? StoreType.fromFileName(path) : type, password, alias));
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
      return ConfigProperty.SASL_KERBEROS_KEYTAB.valid(kerberosKeytab);
    }

    /**
     * A client that keeps connections at least as long as its server does would send calls on connections the server
     * is about to close; in one configuration for both sides that is a mistake.
     */
    private Duration validClientConnectionMaxAge() {
      Duration client = ConfigProperty.CLIENT_CONNECTION_MAX_AGE.valid(clientConnectionMaxAge);
      Duration server = ConfigProperty.SERVER_CONNECTION_MAX_AGE.valid(serverConnectionMaxAge);
      if (!server.isZero() && !client.isZero() && client.compareTo(server) >= 0) {
        throw new ConfigException(ConfigProperty.CLIENT_CONNECTION_MAX_AGE.key(), Values.formatDuration(client)
            + " is not below " + ConfigProperty.SERVER_CONNECTION_MAX_AGE.key() + " (" + Values.formatDuration(server)
            + "); set it lower by more than a request takes to reach the server, so clients retire connections"
            + " before the server closes them");
      }
      return client;
    }

    /** A negotiation message must also fit in a frame. */
    private ServerLimits validServerLimits() {
      long low = ConfigProperty.SERVER_WRITE_BUFFER_LOW.valid(writeBufferLow);
      long high = ConfigProperty.SERVER_WRITE_BUFFER_HIGH.valid(writeBufferHigh);
      long fatal = ConfigProperty.SERVER_WRITE_BUFFER_FATAL.valid(writeBufferFatal);
      if (high <= low) {
        throw new ConfigException(ConfigProperty.SERVER_WRITE_BUFFER_HIGH.key(), high + " bytes must be above "
            + ConfigProperty.SERVER_WRITE_BUFFER_LOW.key() + " (" + low + " bytes); raise it or lower the low mark");
      }
      if (fatal < high) {
        throw new ConfigException(ConfigProperty.SERVER_WRITE_BUFFER_FATAL.key(), fatal + " bytes must be at least "
            + ConfigProperty.SERVER_WRITE_BUFFER_HIGH.key() + " (" + high + " bytes)");
      }
      return new ServerLimits(ConfigProperty.SERVER_MAX_CONNECTIONS.valid(maxConnections),
          ConfigProperty.SERVER_MAX_THREADS.valid(maxThreads),
          ConfigProperty.SERVER_MAX_UNAUTHENTICATED.valid(maxUnauthenticatedConnections),
          ConfigProperty.SERVER_MAX_PER_ADDRESS.valid(maxConnectionsPerAddress),
          ConfigProperty.SERVER_MAX_UNAUTHENTICATED_PER_ADDRESS.valid(maxUnauthenticatedConnectionsPerAddress),
          ConfigProperty.SERVER_IPV6_PREFIX.valid(ipv6Prefix),
          ConfigProperty.SERVER_CONNECTION_RATE_PER_ADDRESS.valid(connectionRatePerAddress),
          ConfigProperty.SERVER_CONNECTION_RATE_MAX.valid(connectionRateMax),
          ConfigProperty.SERVER_IDLE_TIMEOUT.valid(serverIdleTimeout),
          ConfigProperty.SERVER_CONNECTION_MAX_AGE.valid(serverConnectionMaxAge), validPortUnification(),
          closeAtTicketEnd, (int) low, (int) high, fatal,
          ConfigProperty.SERVER_PENDING_REPLIES_MAX.valid(pendingRepliesMax));
    }

    /**
     * Port unification tells a connection's layers by its first byte: 0x16 starts every TLS handshake, and a
     * plaintext frame starts with its length's top byte. Only combinations where the two can never meet are taken.
     */
    private boolean validPortUnification() {
      String key = ConfigProperty.SERVER_PORT_UNIFICATION.key();
      if (!portUnification) {
        return false;
      }
      if (!mode.usesTls()) {
        throw new ConfigException(key, "true needs a mode with TLS (tls or sasl-over-tls), but "
            + ConfigProperty.MODE.key() + " is " + mode + (mode.usesSasl() ? ": a Thrift SASL START (first byte 1)"
            + " and a plaintext frame of 16M or more (first byte 1) cannot be told apart; turn TLS on with mode"
            + " sasl-over-tls and unify that port" : ", which serves plaintext already") + ", or set it to false");
      }
      if (maxFrameSize >= PLAINTEXT_FRAME_BOUND) {
        throw new ConfigException(ConfigProperty.LIMIT_MAX_FRAME_SIZE.key(), Values.formatSize(maxFrameSize)
            + " lets a plaintext frame's length start with 0x16, as a TLS handshake does, so " + key + "=true cannot"
            + " tell them apart; set it below " + Values.formatSize(PLAINTEXT_FRAME_BOUND));
      }
      return true;
    }

    private int validNegotiationSize(int frame) {
      ConfigProperty p = ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE;
      long bytes = p.valid(maxNegotiationMessageSize);
      if (bytes > frame) {
        throw new ConfigException(p.key(), bytes + " bytes is larger than " + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key()
            + " (" + frame + " bytes); a negotiation message must fit in a frame");
      }
      return (int) bytes;
    }
  }
}
