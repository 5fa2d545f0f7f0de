package io.securethrift.core.spi;

import io.securethrift.core.SecurityConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads configuration files in another product's format (Accumulo's {@code accumulo.properties},
 * {@code accumulo-site.xml}, client files) into a {@link SecurityConfig}. Found with {@link java.util.ServiceLoader}
 * and registered in {@code META-INF/services/io.securethrift.core.spi.ConfigFileReader}, so core knows no such format.
 */
public interface ConfigFileReader {
  /**
   * Reads {@code file} if this reader recognizes it (by name or content); empty otherwise. A recognized file with a
   * bad value throws {@link io.securethrift.core.ConfigException} naming the key and the file.
   */
  Optional<SecurityConfig> read(Path file) throws IOException;
}
