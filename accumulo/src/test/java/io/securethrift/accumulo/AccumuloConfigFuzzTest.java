package io.securethrift.accumulo;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.testing.ParserOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Fuzzes reading Accumulo's four configuration files and its impersonation keys (converted from the per-user form if
 * need be, then parsed by core's {@code ImpersonationRules}). The input is the file's content; a bad file
 * may only raise a {@link ConfigException} naming the key and the file. The environment is fixed, with
 * {@code $ACCUMULO_CONF_DIR} holding (empty) default stores, so inputs reach the mapping rules without depending on
 * this machine. Seeds: {@code AccumuloConfigFuzzTestInputs/<method>/}.
 */
class AccumuloConfigFuzzTest {
  private static final Path DIR;
  private static final Environment ENVIRONMENT;

  static {
    try {
      DIR = Files.createTempDirectory("securethrift-accumulo-fuzz");
      DIR.toFile().deleteOnExit();
      Files.createDirectories(DIR.resolve("ssl")).toFile().deleteOnExit();
      // Accumulo 1.7's default store paths; the mapping checks that they are files, the TLS module reads them.
      for (Path file : new Path[] {DIR.resolve("ssl/keystore.jks"), DIR.resolve("ssl/truststore.jks")}) {
        Files.createFile(file).toFile().deleteOnExit();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ENVIRONMENT = new Environment(Map.of("ACCUMULO_CONF_DIR", DIR.toString()), new Properties(),
        AccumuloConfigFuzzTest.class.getClassLoader(), () -> "node1.example.com");
  }

  @FuzzTest(maxDuration = "60s")
  void siteXml(byte[] content) {
    read("accumulo-site.xml", content, file -> AccumuloSecurityConfig.read(HadoopXmlFiles.read(file),
        Dialect.SITE_1_7, ENVIRONMENT));
  }

  @FuzzTest(maxDuration = "60s")
  void clientConf(byte[] content) {
    read("client.conf", content, file -> AccumuloSecurityConfig.read(PropertiesFiles.read(file),
        Dialect.CLIENT_1_7, ENVIRONMENT));
  }

  @FuzzTest(maxDuration = "60s")
  void accumuloProperties(byte[] content) {
    read("accumulo.properties", content, file -> AccumuloSecurityConfig.read(PropertiesFiles.read(file),
        Dialect.SITE_2, ENVIRONMENT));
  }

  @FuzzTest(maxDuration = "60s")
  void clientProperties(byte[] content) {
    read("accumulo-client.properties", content, file -> AccumuloSecurityConfig.read(PropertiesFiles.read(file),
        Dialect.CLIENT_2, ENVIRONMENT));
  }

  /** A properties file's impersonation keys, both forms, read as a site file with SASL on would read them. */
  @FuzzTest(maxDuration = "60s")
  void impersonation(byte[] content) {
    String users = "instance.rpc.sasl.allowed.user.impersonation";
    String hosts = "instance.rpc.sasl.allowed.host.impersonation";
    read("accumulo.properties", content, file -> {
      SourceFile source = PropertiesFiles.read(file);
      SecurityConfig.Builder builder = SecurityConfig.builder();
      Impersonation.read(source, users, source.get(users).orElse(""), hosts, source.get(hosts).orElse(""), builder);
      return builder;
    });
  }

  private static void read(String name, byte[] content, Function<Path, ?> reader) {
    Path file = DIR.resolve(name);
    try {
      Files.write(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    file.toFile().deleteOnExit();
    ParserOracle.expectOnly(() -> reader.apply(file), ConfigException.class);
  }
}
