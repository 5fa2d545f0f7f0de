package io.securethrift.accumulo;

import io.securethrift.core.SecurityConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Writes Accumulo configuration files into a directory and reads them back against a fixed environment, with a key
 * store and a trust store from {@link Stores} in the same directory.
 */
final class ConfigFixture {
  static final String HOST = "node1.example.com";

  private final Path dir;
  private final Path keyStore;
  private final Path trustStore;
  private Map<String, String> variables = Map.of();
  private Properties systemProperties = new Properties();
  private ClassLoader classLoader = ConfigFixture.class.getClassLoader();

  /** Writes the stores: the key store is {@code dir/<keyStoreName>.jks}. */
  ConfigFixture(Path dir, String keyStoreName) {
    this.dir = dir;
    this.keyStore = Stores.keyStore(dir, keyStoreName, Stores.KEY_PASSWORD);
    this.trustStore = Stores.trustStore(dir);
  }

  ConfigFixture variables(Map<String, String> variables) {
    this.variables = variables;
    return this;
  }

  ConfigFixture systemProperties(Properties systemProperties) {
    this.systemProperties = systemProperties;
    return this;
  }

  ConfigFixture classLoader(ClassLoader classLoader) {
    this.classLoader = classLoader;
    return this;
  }

  Path dir() {
    return dir;
  }

  Path keyStore() {
    return keyStore;
  }

  Path trustStore() {
    return trustStore;
  }

  /** Site properties that turn on SSL with both stores and their passwords, followed by {@code more} pairs. */
  Map<String, String> ssl(String... more) {
    Map<String, String> map = Stores.props("instance.rpc.ssl.enabled", "true",
        "rpc.javax.net.ssl.keyStore", keyStore.toString(),
        "rpc.javax.net.ssl.keyStorePassword", new String(Stores.KEY_PASSWORD),
        "rpc.javax.net.ssl.trustStore", trustStore.toString(),
        "rpc.javax.net.ssl.trustStorePassword", new String(Stores.TRUST_PASSWORD),
        "rpc.ssl.client.protocol", "TLSv1.2");
    map.putAll(Stores.props(more));
    return map;
  }

  /** Writes {@code accumulo-site.xml} with the properties in order. */
  Path siteXml(Map<String, String> properties) {
    String body = properties.entrySet().stream()
        .map(e -> "  <property><name>" + e.getKey() + "</name><value>" + e.getValue() + "</value></property>")
        .collect(Collectors.joining("\n"));
    return write("accumulo-site.xml", "<?xml version=\"1.0\"?>\n<configuration>\n" + body + "\n</configuration>\n");
  }

  /** Writes a properties file. */
  Path properties(String name, Map<String, String> properties) {
    return write(name, properties.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining("\n", "", "\n")));
  }

  Path write(String name, String text) {
    try {
      return Files.writeString(dir.resolve(name), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  SecurityConfig site(Map<String, String> properties) {
    return read(HadoopXmlFiles.read(siteXml(properties)), Dialect.SITE_1_7);
  }

  SecurityConfig clientConf(Map<String, String> properties) {
    return read(PropertiesFiles.read(properties("client.conf", properties)), Dialect.CLIENT_1_7);
  }

  SecurityConfig accumuloProperties(Map<String, String> properties) {
    return read(PropertiesFiles.read(properties("accumulo.properties", properties)), Dialect.SITE_2);
  }

  SecurityConfig clientProperties(Map<String, String> properties) {
    return read(PropertiesFiles.read(properties("accumulo-client.properties", properties)), Dialect.CLIENT_2);
  }

  private SecurityConfig read(SourceFile file, Dialect dialect) {
    return AccumuloSecurityConfig.read(file, dialect, new Environment(variables, systemProperties, classLoader,
        () -> HOST));
  }
}
