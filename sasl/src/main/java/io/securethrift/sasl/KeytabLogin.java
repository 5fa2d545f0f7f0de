package io.securethrift.sasl;

import io.securethrift.core.identity.KerberosName;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KerberosTicket;
import javax.security.auth.kerberos.KeyTab;
import javax.security.auth.login.AppConfigurationEntry.LoginModuleControlFlag;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kerberos login from a keytab, configured in code (no JAAS file, nothing JVM-wide), in one of two kinds.
 *
 * <p>An {@linkplain #acceptor acceptor} login (servers) is {@code isInitiator=false}: its subject holds the principal
 * and the keytab, whose keys the JDK reads when a client's service ticket is to be decrypted, and no ticket-granting
 * ticket. It never contacts the KDC, at start-up or later, so a server starts and accepts clients that hold valid
 * service tickets while the KDC is down, and it has nothing to renew: no renewal thread.
 *
 * <p>An {@linkplain #initiator initiator} login (clients) asks the KDC for a ticket-granting ticket and is kept fresh
 * by a background thread: every renewal period it checks the ticket and logs in again once 80 % of its lifetime has
 * passed, so connections never start with a ticket about to expire. A failed re-login is retried on a schedule with
 * doubling delays (never a sleeping thread). A client connection that finds the ticket expired re-logs in itself
 * before giving up with a message naming the principal and realm. One re-login runs at a time, and no lock is held
 * while the KDC answers.
 *
 * <p>Neither kind sets {@code refreshKrb5Config}: that option re-reads the JVM-wide krb5 configuration at every login
 * and re-login, under every other Kerberos user in the JVM. The configuration is read once, as the JDK does by
 * default; a changed krb5.conf takes a restart.
 */
final class KeytabLogin implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KeytabLogin.class);
  private static final double RENEW_AFTER_FRACTION = 0.8;
  private static final Duration FIRST_RETRY = Duration.ofSeconds(1);

  private final String principal;
  private final Path keytab;
  private final boolean initiator;
  private final Duration period;
  /** Initiators only; null for an acceptor, which has nothing to renew. */
  private final ScheduledExecutorService renewer;
  /** The re-login under way, if any: connections that need one wait for its result instead of starting another. */
  private final AtomicReference<CompletableFuture<Subject>> relogin = new AtomicReference<>();
  private volatile Subject subject;
  /** Guarded by {@code this}, which is never held while the KDC is asked. */
  private LoginContext context;
  private Duration retryDelay;

  private KeytabLogin(String principal, Path keytab, boolean initiator, Duration period) {
    this.principal = principal;
    this.keytab = keytab;
    this.initiator = initiator;
    this.period = period;
    this.retryDelay = initiator ? shorter(FIRST_RETRY, period) : null;
    this.renewer = !initiator ? null : Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "securethrift-kerberos-renewal " + principal);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * A client's login: asks the KDC for a ticket-granting ticket now (so a bad keytab or unknown principal fails at
   * start-up, not at the first connection) and starts the renewal schedule.
   *
   * @param configuredPrincipal the principal, {@code _HOST} standing for the local canonical host name
   * @throws KerberosLoginException if the login fails
   */
  static KeytabLogin initiator(String configuredPrincipal, Path keytab, Duration period) {
    KeytabLogin login = new KeytabLogin(expanded(configuredPrincipal), keytab, true, period);
    try {
      login.loginNow();
    } catch (KerberosLoginException e) {
      login.close();
      throw e;
    }
    login.renewer.schedule(login::renewIfDue, period.toMillis(), TimeUnit.MILLISECONDS);
    return login;
  }

  /**
   * A server's login: the principal and its keytab, checked now (a keytab without the principal's key fails at
   * start-up), without asking the KDC for anything.
   *
   * @param configuredPrincipal the principal, {@code _HOST} standing for the local canonical host name
   * @throws KerberosLoginException if the keytab cannot be read or holds no key for the principal
   */
  static KeytabLogin acceptor(String configuredPrincipal, Path keytab) {
    KeytabLogin login = new KeytabLogin(expanded(configuredPrincipal), keytab, false, null);
    login.loginNow();
    return login;
  }

  private static String expanded(String configuredPrincipal) {
    return KerberosName.parse(configuredPrincipal).withHostExpanded().toString();
  }

  /** The principal with {@code _HOST} expanded, as it appears in the keytab. */
  String principal() {
    return principal;
  }

  /**
   * The subject of the latest login, whatever its ticket's state: what an acceptor runs as, since accepting needs only
   * the keytab keys it holds (an acceptor's subject holds no ticket at all).
   */
  Subject subject() {
    return subject;
  }

  /**
   * The logged-in subject for a new client connection. If its ticket has expired (renewal kept failing, or the
   * machine slept), logs in again first. Initiators only.
   *
   * @throws KerberosLoginException if the ticket expired and the re-login failed too
   */
  Subject subjectForConnection() {
    if (!initiator) {
      throw new IllegalStateException("the acceptor login of " + principal + " has no ticket to connect with");
    }
    Subject current = subject;
    KerberosTicket tgt = ticketGrantingTicket(current);
    if (tgt != null && tgt.isCurrent()) {
      return current;
    }
    String ended = tgt == null ? "is missing" : "expired at " + tgt.getEndTime().toInstant();
    try {
      return reloginReplacing(current);
    } catch (KerberosLoginException e) {
      throw new KerberosLoginException("Kerberos ticket of " + principal + " (realm " + realm() + ") " + ended
          + " and the re-login failed: " + e.getMessage(), e);
    }
  }

  /**
   * Logs in again unless {@code stale} has been replaced already. Callers that arrive while a re-login runs wait for
   * its result rather than asking the KDC again.
   */
  private Subject reloginReplacing(Subject stale) {
    CompletableFuture<Subject> mine = new CompletableFuture<>();
    CompletableFuture<Subject> running;
    while ((running = relogin.get()) == null) {
      if (relogin.compareAndSet(null, mine)) {
        try {
          // A re-login that finished between our look at the subject and now has done the work.
          Subject result = subject != stale ? subject : loginNow();
          mine.complete(result);
          return result;
        } catch (RuntimeException e) {
          mine.completeExceptionally(e);
          throw e;
        } finally {
          relogin.set(null);
        }
      }
    }
    try {
      return running.join();
    } catch (CompletionException e) {
      // Only the RuntimeException of the thread that asked the KDC completes it exceptionally: report the same.
      throw (RuntimeException) e.getCause();
    }
  }

  private void renewIfDue() {
    Duration next = period;
    try {
      Subject current = subject;
      KerberosTicket tgt = ticketGrantingTicket(current);
      if (tgt == null || Instant.now().isAfter(renewalTime(tgt))) {
        reloginReplacing(current);
        LOG.info("renewed the Kerberos login of {}", principal);
      }
      retryDelay = shorter(FIRST_RETRY, period);
    } catch (RuntimeException e) {
      next = retryDelay;
      retryDelay = shorter(retryDelay.multipliedBy(2), period);
      LOG.warn("Kerberos re-login of {} failed, retrying in {} ms: {}", principal, next.toMillis(), e.getMessage());
    }
    try {
      renewer.schedule(this::renewIfDue, next.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // close() ran while this check did; nothing more to renew.
    }
  }

  private static Instant renewalTime(KerberosTicket tgt) {
    long start = tgt.getStartTime() == null ? tgt.getAuthTime().getTime() : tgt.getStartTime().getTime();
    long end = tgt.getEndTime().getTime();
    return Instant.ofEpochMilli(start + (long) ((end - start) * RENEW_AFTER_FRACTION));
  }

  /**
   * Logs in (an initiator asks the KDC for a new ticket, no lock held meanwhile), then makes the new login current.
   */
  private Subject loginNow() {
    checkKeytab();
    try {
      LoginContext fresh = new LoginContext("securethrift", new Subject(), callbacks -> {
        throw new javax.security.auth.callback.UnsupportedCallbackException(callbacks[0], "keytab login");
      }, new KeytabConfiguration(principal, keytab, initiator));
      fresh.login();
      synchronized (this) {
        subject = fresh.getSubject();
        context = fresh;
      }
      return fresh.getSubject();
    } catch (LoginException e) {
      throw new KerberosLoginException("Kerberos login of " + principal + " (realm " + realm() + ") from keytab "
          + keytab + " failed: " + e.getMessage(), e);
    }
  }

  /** A keytab without this principal's key makes the JDK say only "Unable to obtain password from user". */
  private void checkKeytab() {
    KerberosPrincipal kp;
    try {
      kp = new KerberosPrincipal(principal);
    } catch (IllegalArgumentException e) {
      throw new KerberosLoginException("Kerberos principal " + principal + " is not valid: " + e.getMessage(), e);
    }
    KeyTab tab = KeyTab.getInstance(keytab.toFile());
    if (!tab.exists()) {
      throw new KerberosLoginException("Kerberos keytab " + keytab + " for " + principal + " cannot be read");
    }
    if (tab.getKeys(kp).length == 0) {
      throw new KerberosLoginException("Kerberos keytab " + keytab + " holds no key for " + kp.getName()
          + " (realm " + kp.getRealm() + "); check " + "securethrift.sasl.kerberos.principal and the keytab");
    }
  }

  private String realm() {
    int at = principal.lastIndexOf('@');
    return at < 0 ? "default realm" : principal.substring(at + 1);
  }

  static KerberosTicket ticketGrantingTicket(Subject subject) {
    for (KerberosTicket t : subject.getPrivateCredentials(KerberosTicket.class)) {
      if (t.getServer().getName().startsWith("krbtgt/")) {
        return t;
      }
    }
    return null;
  }

  private static Duration shorter(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  @Override
  public void close() {
    if (renewer != null) {
      renewer.shutdownNow();
    }
    synchronized (this) {
      if (context != null) {
        try {
          context.logout();
        } catch (LoginException ignored) {
          // Logging out only destroys the in-memory tickets early; they expire anyway.
        }
      }
    }
  }

  /**
   * One {@code Krb5LoginModule} entry for a keytab login, built in code. {@code storeKey} keeps the keytab in the
   * subject; {@code isInitiator=false} leaves out the ticket-granting ticket and with it every request to the KDC.
   */
  private static final class KeytabConfiguration extends Configuration {
    private final AppConfigurationEntry entry;

    KeytabConfiguration(String principal, Path keytab, boolean initiator) {
      entry = new AppConfigurationEntry("com.sun.security.auth.module.Krb5LoginModule",
          LoginModuleControlFlag.REQUIRED, Map.of(
              "useKeyTab", "true",
              "keyTab", keytab.toString(),
              "principal", principal,
              "storeKey", "true",
              "doNotPrompt", "true",
              "isInitiator", Boolean.toString(initiator)));
    }

    @Override
    public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
      return new AppConfigurationEntry[] {entry};
    }
  }
}
