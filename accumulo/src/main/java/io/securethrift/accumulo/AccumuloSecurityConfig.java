package io.securethrift.accumulo;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import java.nio.file.Path;

/**
 * Reads Accumulo's own configuration files into a {@link SecurityConfig}, with Accumulo's defaults and rules, so that
 * securethrift peers talk to Accumulo exactly as Accumulo's own clients and servers would.
 *
 * <p>Site files ({@code accumulo-site.xml}, {@code accumulo.properties}) describe a server node, which is also a
 * client of the other servers: with SSL on, both its key store and its trust store are loaded. Client files
 * ({@code client.conf}, {@code accumulo-client.properties}) load the trust store, and the key store only when the
 * instance requires client certificates. The same files may carry {@code securethrift.*} keys for what Accumulo
 * cannot express (TLS engine, hostname verification, timeouts...); they never override an Accumulo key.
 *
 * <p>Every rejected value raises a {@link ConfigException} whose {@link ConfigException#key() key} is the key as
 * written in the file and whose message names the problem, the accepted values and the file; store passwords and
 * other secrets never appear in it. A file that cannot be parsed at all is reported under its path as the key. See
 * {@code docs/accumulo.md} for the full mapping.
 */
public final class AccumuloSecurityConfig {
  private AccumuloSecurityConfig() {}

  /** Reads an Accumulo 1.7 {@code accumulo-site.xml} (Hadoop {@code <configuration>} XML). */
  public static SecurityConfig fromSiteXml(Path file) {
    return read(HadoopXmlFiles.read(file), Dialect.SITE_1_7, Environment.current());
  }

  /** Reads an Accumulo 1.7 {@code client.conf} (Java properties). */
  public static SecurityConfig fromClientConf(Path file) {
    return read(PropertiesFiles.read(file), Dialect.CLIENT_1_7, Environment.current());
  }

  /** Reads an Accumulo 2.x {@code accumulo.properties}. */
  public static SecurityConfig fromAccumuloProperties(Path file) {
    return read(PropertiesFiles.read(file), Dialect.SITE_2, Environment.current());
  }

  /** Reads an Accumulo 2.x {@code accumulo-client.properties}. */
  public static SecurityConfig fromClientProperties(Path file) {
    return read(PropertiesFiles.read(file), Dialect.CLIENT_2, Environment.current());
  }

  static SecurityConfig read(SourceFile file, Dialect dialect, Environment environment) {
    return new AccumuloMapping(file, dialect, environment).map();
  }
}
