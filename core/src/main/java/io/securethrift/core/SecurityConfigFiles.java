package io.securethrift.core;

import io.securethrift.core.spi.ConfigFileReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Reads a configuration file: any format a {@link ConfigFileReader} on the class path recognizes (Accumulo's files,
 * with the accumulo module), else a properties file of {@code securethrift.*} keys. Errors name the file.
 */
public final class SecurityConfigFiles {
  private SecurityConfigFiles() {}

  /**
   * @param file the file to read
   * @param setting what named the file (a command-line option or a key), reported if it cannot be read
   */
  public static SecurityConfig read(Path file, String setting) {
    try {
      for (ConfigFileReader reader : ServiceLoader.load(ConfigFileReader.class,
          SecurityConfigFiles.class.getClassLoader())) {
        Optional<SecurityConfig> config = reader.read(file);
        if (config.isPresent()) {
          return config.get();
        }
      }
      return readProperties(file, setting);
    } catch (IOException e) {
      throw new ConfigException(setting, "cannot read " + file + ": " + e.getMessage());
    }
  }

  private static SecurityConfig readProperties(Path file, String setting) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (CharacterCodingException e) {
      throw new ConfigException(setting, file + " is not UTF-8 text");
    } catch (IllegalArgumentException e) {
      // Properties.load's only complaint about content: a backslash-u escape without four hex digits.
      throw new ConfigException(setting, file + " is not a valid properties file: " + e.getMessage());
    }
    try {
      return SecurityConfig.fromProperties(p.stringPropertyNames().stream()
          .collect(Collectors.toMap(k -> k, p::getProperty)));
    } catch (ConfigException e) {
      throw e.from(file.toString());
    }
  }
}
