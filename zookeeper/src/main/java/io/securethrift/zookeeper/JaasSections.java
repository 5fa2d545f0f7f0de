package io.securethrift.zookeeper;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;

/**
 * The JAAS sections securethrift builds in code, served through the JVM-wide {@link Configuration}.
 *
 * <p>ZooKeeper 3.9 looks its login sections up only through {@code Configuration.getConfiguration()}, so an in-code
 * section has to be reachable from there. Installing replaces the JVM's configuration once with one that answers
 * securethrift's own section names and hands every other name to the configuration that was there before, so JAAS
 * files and sections other code relies on keep working. Sections are keyed by a name derived from their content, so
 * registering the same login twice is harmless and nothing needs removing.
 */
final class JaasSections extends Configuration {
  static final String KRB5_LOGIN_MODULE = "com.sun.security.auth.module.Krb5LoginModule";

  private static final Map<String, AppConfigurationEntry[]> SECTIONS = new ConcurrentHashMap<>();

  private final Configuration previous;

  private JaasSections(Configuration previous) {
    this.previous = previous;
  }

  /** Adds (or replaces) a Kerberos login section and makes sure the JVM's configuration can see it. */
  static void register(String name, Map<String, String> krb5Options) {
    SECTIONS.put(name, new AppConfigurationEntry[] {
        new AppConfigurationEntry(KRB5_LOGIN_MODULE, AppConfigurationEntry.LoginModuleControlFlag.REQUIRED,
            Map.copyOf(krb5Options))});
    install();
  }

  private static synchronized void install() {
    Configuration current = currentOrNull();
    if (!(current instanceof JaasSections)) {
      Configuration.setConfiguration(new JaasSections(current));
    }
  }

  private static Configuration currentOrNull() {
    try {
      return Configuration.getConfiguration();
    } catch (SecurityException noLoginFile) {
      // No java.security.auth.login.config and no default file: there is nothing to delegate to.
      return null;
    }
  }

  @Override
  public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
    AppConfigurationEntry[] own = SECTIONS.get(name);
    if (own != null) {
      return own.clone();
    }
    return previous == null ? null : previous.getAppConfigurationEntry(name);
  }

  @Override
  public void refresh() {
    if (previous != null) {
      previous.refresh();
    }
  }
}
