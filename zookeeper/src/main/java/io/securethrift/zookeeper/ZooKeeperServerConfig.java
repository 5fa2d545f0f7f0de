package io.securethrift.zookeeper;

import io.securethrift.core.ConfigException;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.identity.KerberosName;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The zoo.cfg of one ZooKeeper 3.9 server, with its client port, client-port TLS, quorum TLS, quorum SASL and Kerberos
 * settings
 * generated from the same {@link SecurityConfig} that secures securethrift's Thrift servers.
 *
 * <pre>{@code
 * Path zooCfg = ZooKeeperServerConfig.builder(security).confDir(dir).secureClientPort(2281)
 *     .myid(1).server(1, "zk1", 2888, 3888).server(2, "zk2", 2888, 3888).server(3, "zk3", 2888, 3888)
 *     .quorumTls(true).build().write();
 * // java -cp ... io.securethrift.zookeeper.SecureZooKeeperServerMain <zooCfg>
 * }</pre>
 *
 * <p>Every server uses {@code NettyServerCnxnFactory}, with or without TLS, so a plaintext and a TLS server differ
 * only in TLS. ZooKeeper turns the zoo.cfg keys it does not know ({@code ssl.*}, {@code ssl.quorum.*},
 * {@code serverCnxnFactory}, {@code authProvider.*}) into {@code zookeeper.*} system properties of the server JVM and
 * reads them from there for the server's whole life, so a server is one JVM: run it with
 * {@link SecureZooKeeperServerMain}, which also applies the settings ZooKeeper can take only JVM-wide (the Kerberos
 * login section, Conscrypt).
 *
 * <p>Engine {@code openssl} writes {@code ssl.sslProvider=OPENSSL}, Netty's netty-tcnative engine, for the client
 * port; {@link SecureZooKeeperServerMain} checks that it loads (see {@link NettyOpenSsl}).
 *
 * <p>Quorum TLS always runs on ZooKeeper's own JSSE context, whatever the engine: its quorum listener hands sockets
 * to {@code SSLSocketFactory.createSocket(Socket, InputStream, boolean)}, which Conscrypt does not implement, so a
 * Conscrypt quorum context ({@link ConscryptSslContextSupplier}) fails every incoming peer connection in 3.9.5. The
 * written zoo.cfg and securethrift.properties hold store passwords in clear, as
 * ZooKeeper's own zoo.cfg does; they are created readable by their owner only.
 */
public final class ZooKeeperServerConfig {
  /** The zoo.cfg key naming the securethrift properties file that {@link SecureZooKeeperServerMain} and
   * {@link ConscryptSslContextSupplier} read; ZooKeeper exposes it as system property {@code zookeeper.}+key. */
  public static final String SECURITY_FILE_KEY = "securethriftConfig";
  static final String SECURITY_FILE_NAME = "securethrift.properties";
  static final String NETTY_SERVER = "org.apache.zookeeper.server.NettyServerCnxnFactory";
  static final String SASL_PROVIDER = "org.apache.zookeeper.server.auth.SASLAuthenticationProvider";
  /** The zoo.cfg key that turns quorum SASL on; {@link SecureZooKeeperServerMain} then adds the learner's login. */
  static final String QUORUM_SASL = "quorum.auth.enableSasl";
  /**
   * The zoo.cfg key of ZooKeeper's port unification, written from {@code securethrift.server.port.unification}: the
   * plaintext client port takes TLS clients too. ZooKeeper reads it at start only; its TLS-only switch is a rolling
   * restart without it.
   */
  static final String PORT_UNIFICATION = "client.portUnification";
  /** The zoo.cfg key of ZooKeeper's FIPS mode, {@code zookeeper.fips-mode} without the prefix zoo.cfg keys lose. */
  static final String FIPS_MODE = "fips-mode";

  private final SecurityConfig security;
  private final Path confDir;
  private final Path dataDir;
  private final Map<String, String> entries;
  private final int myid;

  private ZooKeeperServerConfig(Builder b) {
    this.security = b.security;
    this.confDir = b.confDir;
    this.dataDir = b.dataDir == null ? b.confDir.resolve("data") : b.dataDir;
    this.myid = b.myid;
    this.entries = entries(b, dataDir, confDir);
  }

  /** A builder for a server secured as {@code security} describes. */
  public static Builder builder(SecurityConfig security) {
    return new Builder(security);
  }

  /** The zoo.cfg content, keys in a stable order; passwords appear in clear. */
  public Properties toProperties() {
    Properties p = new Properties();
    p.putAll(entries);
    return p;
  }

  /**
   * Writes {@code confDir/zoo.cfg}, {@code confDir/securethrift.properties} and, for an ensemble member,
   * {@code dataDir/myid}.
   *
   * @return the zoo.cfg written, the argument for {@link SecureZooKeeperServerMain}
   */
  public Path write() {
    try {
      Files.createDirectories(dataDir);
      writePrivate(confDir.resolve(SECURITY_FILE_NAME), text(security.toProperties()));
      if (myid > 0) {
        Files.writeString(dataDir.resolve("myid"), Integer.toString(myid), StandardCharsets.US_ASCII);
      }
      Path zooCfg = confDir.resolve("zoo.cfg");
      writePrivate(zooCfg, text(entries));
      return zooCfg;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the ZooKeeper configuration in " + confDir, e);
    }
  }

  private static Map<String, String> entries(Builder b, Path dataDir, Path confDir) {
    SecurityConfig security = b.security;
    Map<String, String> e = new TreeMap<>();
    e.put("tickTime", Integer.toString(b.tickTime));
    e.put("initLimit", "10");
    e.put("syncLimit", "5");
    e.put("dataDir", dataDir.toAbsolutePath().toString());
    e.put("admin.enableServer", "false");
    e.put("4lw.commands.whitelist", "srvr,ruok");
    e.put("serverCnxnFactory", NETTY_SERVER);
    e.put(SECURITY_FILE_KEY, confDir.resolve(SECURITY_FILE_NAME).toAbsolutePath().toString());
    if (security.mode().usesTls()) {
      // ZooKeeper makes every key it does not know a system property "zookeeper." + key: zookeeper.fips-mode.
      TlsKeys.putFipsMode(security.tls(), FIPS_MODE, e::put);
    }
    if (b.clientPort > 0) {
      e.put("clientPort", Integer.toString(b.clientPort));
    }
    // ZooKeeper's port unification lets the plaintext client port take TLS too, with the client port's TLS keys.
    boolean unified = b.clientPort > 0 && security.server().portUnification();
    if (unified) {
      e.put(PORT_UNIFICATION, "true");
    }
    if (b.secureClientPort > 0) {
      e.put("secureClientPort", Integer.toString(b.secureClientPort));
    }
    if (b.secureClientPort > 0 || unified) {
      if (ConscryptDefaultTls.chosen(security.tls())) {
        ConscryptDefaultTls.requireTls12Only(security.tls());
      }
      TlsKeys.put(security.tls(), "ssl.", e::put);
      TlsKeys.putClientAuth(security.tls(), "ssl.", e::put);
      NettyOpenSsl.putProvider(security.tls(), "ssl.", e::put);
    }
    e.putAll(b.servers);
    if (b.quorumTls) {
      e.put("sslQuorum", "true");
      TlsKeys.put(security.tls(), "ssl.quorum.", e::put);
      // Quorum peers are each other's clients: both ends must prove who they are, whatever the client port asks.
      e.put("ssl.quorum.clientAuth", "need");
      if (!security.tls().reloadInterval().isZero()) {
        e.put("sslQuorumReloadCertFiles", "true");
      }
    }
    if (security.mode().usesSasl()) {
      SaslSupport.check(security.sasl());
      e.put("authProvider.sasl", SASL_PROVIDER);
      e.put("sasl.serverconfig", KerberosSection.name(security.sasl(), false));
    }
    if (b.quorumSasl) {
      e.put(QUORUM_SASL, "true");
      e.put("quorum.auth.learnerRequireSasl", "true");
      e.put("quorum.auth.serverRequireSasl", "true");
      e.put("quorum.auth.learner.saslLoginContext", KerberosSection.name(security.sasl(), true));
      e.put("quorum.auth.server.saslLoginContext", KerberosSection.name(security.sasl(), false));
      KerberosName principal = KerberosName.parse(security.sasl().kerberosPrincipal().orElseThrow());
      // ZooKeeper expands _HOST only in exactly primary/_HOST, so the peers' realm is krb5.conf's default one.
      e.put("quorum.auth.kerberos.servicePrincipal", principal.instance().isPresent() ? principal.primary() + "/_HOST"
          : principal.toString());
    }
    return e;
  }

  private static String text(Map<String, String> map) throws IOException {
    Properties p = new Properties();
    p.putAll(map);
    Writer w = new StringWriter();
    p.store(w, "generated by securethrift");
    return w.toString();
  }

  private static void writePrivate(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.deleteIfExists(file);
    if (Files.getFileStore(file.toAbsolutePath().getParent()).supportsFileAttributeView("posix")) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    Files.writeString(file, text, StandardCharsets.ISO_8859_1);
  }

  /** Collects one server's settings; {@link #build()} checks they fit together. */
  public static final class Builder {
    private final SecurityConfig security;
    private Path confDir;
    private Path dataDir;
    private int clientPort;
    private int secureClientPort;
    private int myid;
    private int tickTime = 2000;
    private boolean quorumTls;
    private boolean quorumSasl;
    private final Map<String, String> servers = new TreeMap<>();

    private Builder(SecurityConfig security) {
      this.security = Objects.requireNonNull(security, "security");
    }

    /** Directory for zoo.cfg and securethrift.properties (required). */
    public Builder confDir(Path dir) {
      this.confDir = dir;
      return this;
    }

    /** Snapshot and log directory; default {@code confDir/data}. */
    public Builder dataDir(Path dir) {
      this.dataDir = dir;
      return this;
    }

    /** Plaintext client port; 0 (default) means none. */
    public Builder clientPort(int port) {
      this.clientPort = port;
      return this;
    }

    /** TLS client port; 0 (default) means none. */
    public Builder secureClientPort(int port) {
      this.secureClientPort = port;
      return this;
    }

    /** This server's id in an ensemble, written to {@code dataDir/myid}; default 0: a standalone server. */
    public Builder myid(int id) {
      this.myid = id;
      return this;
    }

    /** ZooKeeper's basic time unit in milliseconds (default 2000); session timeouts are 2 to 20 ticks. */
    public Builder tickTime(int millis) {
      this.tickTime = millis;
      return this;
    }

    /** Adds an ensemble member, {@code server.id=host:quorumPort:electionPort}; default none: standalone. */
    public Builder server(int id, String host, int quorumPort, int electionPort) {
      servers.put("server." + id, host + ":" + quorumPort + ":" + electionPort);
      return this;
    }

    /** Whether quorum connections use TLS ({@code sslQuorum=true} and {@code ssl.quorum.*}); default false. */
    public Builder quorumTls(boolean enabled) {
      this.quorumTls = enabled;
      return this;
    }

    /**
     * Whether quorum peers authenticate each other with Kerberos ({@code quorum.auth.*}); default false. Each server
     * logs in with its own {@code securethrift.sasl.kerberos.*} principal and keytab, as learner and as quorum server,
     * and learners ask for the ticket of {@code primary/_HOST}, the host being each peer's host in its {@code
     * server.N} line: so that host must be the name in the peer's principal, not an address, and the peers' realm the
     * default realm of krb5.conf (ZooKeeper expands {@code _HOST} only in a principal without a realm).
     */
    public Builder quorumSasl(boolean enabled) {
      this.quorumSasl = enabled;
      return this;
    }

    /** Checks the settings against each other and the security configuration, and returns the configuration. */
    public ZooKeeperServerConfig build() {
      Objects.requireNonNull(confDir, "confDir");
      if (clientPort == 0 && secureClientPort == 0) {
        throw new IllegalStateException("a server needs a clientPort, a secureClientPort or both");
      }
      if ((secureClientPort > 0 || quorumTls) && !security.mode().usesTls()) {
        throw new ConfigException(ConfigProperty.MODE.key(), "'" + security.mode()
            + "' has no TLS, but a secure client port or quorum TLS was asked for; use tls or sasl-over-tls");
      }
      boolean unified = clientPort > 0 && security.server().portUnification();
      if ((secureClientPort > 0 || quorumTls || unified) && security.tls().keyStore().isEmpty()) {
        throw new ConfigException(ConfigProperty.TLS_KEYSTORE_PATH.key(), "empty; a ZooKeeper TLS server needs its"
            + " certificate and key");
      }
      if (quorumTls && security.tls().trustStore().isEmpty()) {
        throw new ConfigException(ConfigProperty.TLS_TRUSTSTORE_PATH.key(), "empty; quorum TLS checks every peer"
            + " against the trust store");
      }
      if (quorumSasl && (!security.mode().usesSasl() || security.sasl().kerberosKeytab().isEmpty())) {
        throw new ConfigException(ConfigProperty.MODE.key(), "quorum SASL was asked for, but '" + security.mode()
            + "' has no Kerberos keytab login; use sasl with securethrift.sasl.kerberos.principal and .keytab");
      }
      if (!servers.isEmpty() && !servers.containsKey("server." + myid)) {
        throw new IllegalStateException("myid " + myid + " is not one of the servers " + servers.keySet());
      }
      return new ZooKeeperServerConfig(this);
    }
  }
}
