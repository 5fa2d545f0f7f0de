package io.securethrift.accumulo;

import io.securethrift.core.identity.KerberosName;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * What a configuration file is read against besides the file: environment variables ({@code ACCUMULO_CONF_DIR}), the
 * JVM's {@code javax.net.ssl.*} system properties (for {@code rpc.useJsse}), the class path that key stores may come
 * from, and the local canonical host name that {@code _HOST} expands to. Tests pass their own.
 */
final class Environment {
  private final Map<String, String> variables;
  private final Properties systemProperties;
  private final ClassLoader classLoader;
  private final Supplier<String> localHostName;

  Environment(Map<String, String> variables, Properties systemProperties, ClassLoader classLoader,
      Supplier<String> localHostName) {
    this.variables = variables;
    this.systemProperties = systemProperties;
    this.classLoader = classLoader;
    this.localHostName = localHostName;
  }

  /** This process's environment, system properties and class path. */
  static Environment current() {
    return new Environment(System.getenv(), System.getProperties(), Environment.class.getClassLoader(),
        KerberosName::localHostName);
  }

  Map<String, String> variables() {
    return variables;
  }

  Properties systemProperties() {
    return systemProperties;
  }

  ClassLoader classLoader() {
    return classLoader;
  }

  Supplier<String> localHostName() {
    return localHostName;
  }
}
