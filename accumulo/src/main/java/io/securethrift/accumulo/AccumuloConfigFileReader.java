package io.securethrift.accumulo;

import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityConfigFiles;
import io.securethrift.core.spi.ConfigFileReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Lets {@link SecurityConfigFiles#read(Path, String)} (and so every {@code --config} option of securethrift's tools)
 * read Accumulo's own files with the rules of {@link AccumuloSecurityConfig}. Registered through
 * {@code META-INF/services}; public only because {@link java.util.ServiceLoader} needs it.
 *
 * <p>Recognized: {@code accumulo-site.xml}, {@code client.conf}, {@code accumulo.properties} and
 * {@code accumulo-client.properties} by name; a properties file with another name when it holds Accumulo keys
 * ({@code ssl.*}, {@code sasl.*}, {@code auth.*} or {@code instance.zookeepers}: 2.x client file; otherwise
 * {@code instance.name} or {@code kerberos.server.primary}: 1.x client file; otherwise {@code instance.rpc.*},
 * {@code rpc.*}, {@code general.*}, {@code instance.zookeeper.host}...: 2.x site file). Anything else, such as a file
 * of {@code securethrift.*} keys only, is left to securethrift's own reader.
 */
public final class AccumuloConfigFileReader implements ConfigFileReader {
  /** For {@link java.util.ServiceLoader}. */
  public AccumuloConfigFileReader() {}

  @Override
  public Optional<SecurityConfig> read(Path file) throws IOException {
    Path name = file.getFileName();
    try {
      Optional<Dialect> named = name == null ? Optional.empty() : FileKinds.byName(name.toString());
      if (named.isPresent()) {
        Dialect dialect = named.get();
        SourceFile source = FileKinds.isXml(dialect) ? HadoopXmlFiles.read(file) : PropertiesFiles.read(file);
        return Optional.of(AccumuloSecurityConfig.read(source, dialect, Environment.current()));
      }
      SourceFile source = PropertiesFiles.read(file);
      return FileKinds.byKeys(source.entries().keySet())
          .map(dialect -> AccumuloSecurityConfig.read(source, dialect, Environment.current()));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
