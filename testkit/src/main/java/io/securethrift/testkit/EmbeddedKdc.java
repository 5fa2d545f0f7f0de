package io.securethrift.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kerby.kerberos.kerb.KrbException;
import org.apache.kerby.kerberos.kerb.server.KdcConfig;
import org.apache.kerby.kerberos.kerb.server.KdcConfigKey;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;

/**
 * A Kerberos KDC (Apache Kerby) running inside the test JVM, with principals, keytabs and a
 * krb5.conf that the JDK's GSS-API/JAAS code can use unchanged.
 *
 * <p>The KDC listens on TCP only, on {@code localhost}. While it runs, the JVM-wide system property
 * {@code java.security.krb5.conf} points at its krb5.conf; {@link #close()} restores the previous
 * value (or clears it). Because that property is JVM-wide, only one {@code EmbeddedKdc} may run
 * in a JVM at a time, and test classes that use one must not run in parallel in the same fork;
 * starting a second one fails fast instead of silently redirecting the first one's clients.
 *
 * <p>The JDK reads krb5.conf once per JVM and keeps it. Starting a KDC makes it re-read the file
 * (through a {@code Krb5LoginModule} login with {@code refreshKrb5Config=true} that does nothing
 * else), so logins need no option of their own for it, and a KDC started after an earlier one on
 * another port is the one the JDK asks.
 *
 * <pre>{@code
 * try (EmbeddedKdc kdc = EmbeddedKdc.builder().ticketLifetime(Duration.ofMinutes(1)).start()) {
 *   KerberosIdentity client = kdc.principal("client");
 *   KerberosIdentity server = kdc.servicePrincipal("accumulo", "localhost");
 *   Subject subject = KerberosLogin.login(client);
 * }
 * }</pre>
 */
public final class EmbeddedKdc implements AutoCloseable {

  /** The host name clients use for the KDC and that service principals should name. */
  public static final String HOST = "localhost";

  private static final int START_ATTEMPTS = 5;

  private final String realm;
  private final int port;
  private final Path workDir;
  private final Path krb5Conf;
  private final SimpleKdcServer server;
  private final Krb5ConfProperty krb5ConfProperty;
  private final Map<String, KerberosIdentity> identities = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedKdc(
      String realm,
      int port,
      Path workDir,
      Path krb5Conf,
      SimpleKdcServer server,
      Krb5ConfProperty krb5ConfProperty) {
    this.realm = realm;
    this.port = port;
    this.workDir = workDir;
    this.krb5Conf = krb5Conf;
    this.server = server;
    this.krb5ConfProperty = krb5ConfProperty;
  }

  /** Returns a builder with the defaults: realm {@code EXAMPLE.COM}, a free port, 1 day tickets. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the realm, e.g. {@code EXAMPLE.COM}. */
  public String realm() {
    return realm;
  }

  /** Returns the TCP port the KDC listens on (never 0, even if the builder asked for any port). */
  public int port() {
    return port;
  }

  /** Returns the krb5.conf this KDC wrote; {@code java.security.krb5.conf} points here. */
  public Path krb5Conf() {
    return krb5Conf;
  }

  /** Returns the temporary directory holding krb5.conf and keytabs; it is deleted on close. */
  public Path workDir() {
    return workDir;
  }

  /**
   * Returns {@code name@REALM}; a name that already carries this realm is returned unchanged.
   *
   * @throws IllegalArgumentException if the name carries a different realm
   */
  public String qualify(String name) {
    Objects.requireNonNull(name, "name");
    int at = name.lastIndexOf('@');
    if (at < 0) {
      return name + "@" + realm;
    }
    if (!name.substring(at + 1).equals(realm)) {
      throw new IllegalArgumentException(
          "principal " + name + " is not in this KDC's realm " + realm);
    }
    return name;
  }

  /**
   * Returns the identity for {@code name@REALM}, creating the principal with a random password and
   * exporting its keytab the first time. Repeated calls return the same identity, so that test
   * methods sharing one KDC may each ask for the principals they need.
   */
  public KerberosIdentity principal(String name) {
    String principal = qualify(name);
    return identities.computeIfAbsent(principal, p -> create(p, null));
  }

  /**
   * Creates {@code name@REALM} with a password the test knows (for password and wrong-password
   * logins) and exports its keytab too.
   *
   * @throws IllegalStateException if the principal already exists
   */
  public KerberosIdentity principalWithPassword(String name, char[] password) {
    Objects.requireNonNull(password, "password");
    String principal = qualify(name);
    KerberosIdentity created = create(principal, password);
    if (identities.putIfAbsent(principal, created) != null) {
      throw new IllegalStateException("principal " + principal + " already exists");
    }
    return created;
  }

  /**
   * Returns the identity for the service principal {@code service/host@REALM}, creating it on first
   * use. The host must be spelled exactly as clients address the service ({@code localhost}); the
   * KDC does not know a service by an IP address.
   */
  public KerberosIdentity servicePrincipal(String service, String host) {
    return principal(service + "/" + host);
  }

  /**
   * Returns the keytab of a principal created earlier.
   *
   * @throws IllegalArgumentException if this KDC never created the principal
   */
  public Path keytab(String name) {
    KerberosIdentity identity = identities.get(qualify(name));
    if (identity == null) {
      throw new IllegalArgumentException("no principal " + qualify(name) + " was created");
    }
    return identity.keytab();
  }

  /**
   * Removes a principal from the KDC's database, for tests of unknown principals. Its keytab file
   * is kept on purpose, so that a login with it now fails the way a stale keytab does.
   */
  public void deletePrincipal(String name) {
    String principal = qualify(name);
    try {
      server.deletePrincipal(principal);
    } catch (KrbException e) {
      throw new IllegalStateException("cannot delete principal " + principal, e);
    }
    identities.remove(principal);
  }

  /**
   * Stops answering Kerberos requests, as a KDC outage would, for tests of what still works without
   * one: logins fail from now on, tickets already issued stay valid, and the keytabs, krb5.conf and
   * {@code java.security.krb5.conf} stay until {@link #close()}. Calling it again does nothing.
   */
  public void stop() {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    try {
      // Kerby's stop() deletes the krb5.conf, which the JVM still needs to find the realm.
      byte[] conf = Files.readAllBytes(krb5Conf);
      server.stop();
      Files.write(krb5Conf, conf);
    } catch (KrbException | IOException e) {
      throw new IllegalStateException("cannot stop the KDC", e);
    }
  }

  /**
   * Answers Kerberos requests again after {@link #stop()}, as a KDC back from an outage: same port, same principals
   * and keys, so keytabs exported before still log in. Does nothing if the KDC is running.
   *
   * @throws IllegalStateException if the KDC is closed or cannot listen again
   */
  public void restart() {
    if (closed.get()) {
      throw new IllegalStateException("the KDC is closed; start a new one");
    }
    if (!stopped.compareAndSet(true, false)) {
      return;
    }
    try {
      // As in stop(): the krb5.conf must survive whatever Kerby does to its work directory.
      byte[] conf = Files.readAllBytes(krb5Conf);
      server.start();
      Files.write(krb5Conf, conf);
    } catch (KrbException | IOException e) {
      stopped.set(true);
      throw new IllegalStateException("cannot restart the KDC on port " + port, e);
    }
  }

  /**
   * Stops the KDC, restores {@code java.security.krb5.conf} and deletes the working directory.
   * Calling it again does nothing.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      stop();
    } finally {
      krb5ConfProperty.release();
      Directories.deleteRecursively(workDir);
    }
  }

  private KerberosIdentity create(String principal, char[] password) {
    Path keytab = workDir.resolve(keytabFileName(principal));
    try {
      if (password == null) {
        server.createPrincipal(principal, randomPassword());
      } else {
        server.createPrincipal(principal, new String(password));
      }
      server.exportPrincipal(principal, keytab.toFile());
    } catch (KrbException e) {
      throw new IllegalStateException("cannot create principal " + principal, e);
    }
    return new KerberosIdentity(principal, keytab);
  }

  private String randomPassword() {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String keytabFileName(String principal) {
    String shortName = principal.substring(0, principal.lastIndexOf('@'));
    return shortName.replace('/', '_') + ".keytab";
  }

  /** Collects the settings of an {@link EmbeddedKdc}; {@link #start()} runs it. */
  public static final class Builder {
    private String realm = "EXAMPLE.COM";
    private int port;
    private Duration ticketLifetime = Duration.ofDays(1);
    private Duration maximumRenewableLifetime = Duration.ofDays(7);
    private Duration clockSkew = Duration.ofMinutes(5);

    private Builder() {}

    /** Sets the realm (upper case by Kerberos convention). Default {@code EXAMPLE.COM}. */
    public Builder realm(String realm) {
      this.realm = KdcSettings.realm(realm);
      return this;
    }

    /** Sets the TCP port; 0 (the default) picks a free one. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0..65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Sets the longest ticket the KDC issues (and the lifetime clients ask for). Short lifetimes
     * let tests exercise expiry and re-login; combine with a small {@link #clockSkew} because both
     * KDC and JDK accept tickets up to the clock skew past their end. Default 1 day.
     */
    public Builder ticketLifetime(Duration lifetime) {
      this.ticketLifetime = KdcSettings.positiveSeconds(lifetime, "ticketLifetime");
      return this;
    }

    /** Sets how long tickets may be renewed (and what clients ask for). Default 7 days. */
    public Builder maximumRenewableLifetime(Duration lifetime) {
      this.maximumRenewableLifetime = KdcSettings.positiveSeconds(lifetime, "maximumRenewableLifetime");
      return this;
    }

    /** Sets the clock skew both the KDC and the JDK tolerate. Default 5 minutes. */
    public Builder clockSkew(Duration skew) {
      this.clockSkew = KdcSettings.clockSkew(skew);
      return this;
    }

    /**
     * Starts the KDC and points {@code java.security.krb5.conf} at its krb5.conf.
     *
     * @throws IllegalStateException if another test KDC runs in this JVM or the KDC
     *     cannot start
     */
    public EmbeddedKdc start() {
      Krb5ConfProperty property = Krb5ConfProperty.claim("EmbeddedKdc");
      Path workDir = null;
      try {
        workDir = Files.createTempDirectory("embedded-kdc-");
        return startIn(workDir, property);
      } catch (IOException | KrbException | RuntimeException e) {
        property.release();
        if (workDir != null) {
          Directories.deleteRecursively(workDir);
        }
        throw new IllegalStateException("cannot start the embedded KDC", e);
      }
    }

    private EmbeddedKdc startIn(Path workDir, Krb5ConfProperty property) throws IOException, KrbException {
      KrbException lastFailure = null;
      int attempts = port == 0 ? START_ATTEMPTS : 1;
      for (int attempt = 0; attempt < attempts; attempt++) {
        int chosenPort = port == 0 ? KdcSettings.freePort(HOST) : port;
        SimpleKdcServer server = newServer(workDir, chosenPort);
        try {
          server.start();
        } catch (KrbException e) {
          // Another process may have taken the free port between probing and binding.
          lastFailure = e;
          continue;
        }
        Path krb5Conf = workDir.resolve("krb5.conf");
        Krb5ConfWriter.write(krb5Conf, realm, HOST, chosenPort, Krb5ConfWriter.ENCTYPES, ticketLifetime,
            maximumRenewableLifetime, clockSkew);
        property.pointAt(krb5Conf);
        return new EmbeddedKdc(realm, chosenPort, workDir, krb5Conf, server, property);
      }
      throw lastFailure;
    }

    private SimpleKdcServer newServer(Path workDir, int chosenPort) throws KrbException {
      SimpleKdcServer server = new SimpleKdcServer();
      KdcConfig config = server.getKdcConfig();
      config.setBoolean(KdcConfigKey.KRB_DEBUG, false);
      config.setString(KdcConfigKey.ENCRYPTION_TYPES, Krb5ConfWriter.ENCTYPES);
      config.setLong(KdcConfigKey.MAXIMUM_TICKET_LIFETIME, ticketLifetime.toSeconds());
      config.setLong(KdcConfigKey.MINIMUM_TICKET_LIFETIME, 1L);
      config.setLong(
          KdcConfigKey.MAXIMUM_RENEWABLE_LIFETIME, maximumRenewableLifetime.toSeconds());
      config.setLong(KdcConfigKey.ALLOWABLE_CLOCKSKEW, clockSkew.toSeconds());
      server.setWorkDir(workDir.toFile());
      server.setKdcRealm(realm);
      server.setKdcHost(HOST);
      server.setAllowUdp(false);
      server.setKdcTcpPort(chosenPort);
      // init() writes Kerby's own krb5.conf and sets the system property; ours replaces both.
      server.init();
      return server;
    }
  }
}
