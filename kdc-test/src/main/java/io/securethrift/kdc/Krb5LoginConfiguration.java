package io.securethrift.kdc;

import java.util.Map;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.AppConfigurationEntry.LoginModuleControlFlag;
import javax.security.auth.login.Configuration;

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

  @Override
  public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
    return new AppConfigurationEntry[] {entry};
  }
}
