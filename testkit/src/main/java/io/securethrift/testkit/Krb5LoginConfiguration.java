package io.securethrift.testkit;

import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.AppConfigurationEntry.LoginModuleControlFlag;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

/**
 * A JAAS configuration built in code that offers exactly one {@code Krb5LoginModule} entry for any
 * application name.
 *
 * <p>Building it in code, instead of pointing {@code java.security.auth.login.config} at a file,
 * keeps each login independent of JVM-wide state that other tests might set.
 */
final class Krb5LoginConfiguration extends Configuration {

  static final String KRB5_LOGIN_MODULE = "com.sun.security.auth.module.Krb5LoginModule";

  private final AppConfigurationEntry entry;

  Krb5LoginConfiguration(Map<String, String> options) {
    this.entry =
        new AppConfigurationEntry(KRB5_LOGIN_MODULE, LoginModuleControlFlag.REQUIRED, options);
  }

  /** Options for a keytab login; {@code refreshKrb5Config} makes the JDK re-read krb5.conf. */
  static Krb5LoginConfiguration keytab(KerberosIdentity identity, boolean initiator) {
    return new Krb5LoginConfiguration(
        Map.of(
            "useKeyTab", "true",
            "keyTab", identity.keytab().toString(),
            "principal", identity.principal(),
            "storeKey", "true",
            "doNotPrompt", "true",
            "refreshKrb5Config", "true",
            "isInitiator", Boolean.toString(initiator)));
  }

  /** Options for a password login; the password itself arrives through a callback handler. */
  static Krb5LoginConfiguration password(String principal) {
    return new Krb5LoginConfiguration(
        Map.of(
            "principal", principal,
            "storeKey", "true",
            "refreshKrb5Config", "true",
            "isInitiator", "true"));
  }

  /**
   * Makes the JDK re-read krb5.conf now, for a KDC that has just started on a new port. The JDK has no public call for
   * it, but {@code Krb5LoginModule} refreshes its JVM-wide configuration first thing in a login with {@code
   * refreshKrb5Config=true}; this login then stops at once, before it reads a keytab or asks a KDC, because {@code
   * doNotPrompt} without any source of keys is a configuration error. A krb5.conf the JDK cannot read fails it with
   * that cause instead.
   */
  static void refreshJdkConfiguration() {
    Krb5LoginConfiguration refreshOnly = new Krb5LoginConfiguration(
        Map.of("refreshKrb5Config", "true", "doNotPrompt", "true", "isInitiator", "false"));
    try {
      LoginContext context = new LoginContext("securethrift-krb5-refresh", new Subject(), callbacks -> {
        throw new UnsupportedCallbackException(callbacks[0], "a refresh does not log in");
      }, refreshOnly);
      context.login();
      context.logout();
    } catch (LoginException e) {
      if (e.getCause() != null) {
        throw new IllegalStateException("the JDK cannot read the KDC's krb5.conf", e);
      }
      // The configuration error that ends the login after the refresh.
    }
  }

  @Override
  public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
    return new AppConfigurationEntry[] {entry};
  }
}
