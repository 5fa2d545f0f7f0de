package io.securethrift.ingest;

import io.securethrift.core.ConfigException;
import io.securethrift.core.SecurityConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Collectors;

/** Reads a properties file of securethrift.* keys into a {@link SecurityConfig}, naming the file in every error. */
public final class ConfigFiles {
  private ConfigFiles() {}

  /**
   * @param option the command-line option or setting that named the file, reported if it cannot be read
   */
  public static SecurityConfig read(Path file, String option) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new ConfigException(option, "cannot read " + file + ": " + e.getMessage());
    }
    try {
      return SecurityConfig.fromProperties(p.stringPropertyNames().stream()
          .collect(Collectors.toMap(k -> k, p::getProperty)));
    } catch (ConfigException e) {
      throw new ConfigException(e.key(), e.getMessage().substring(e.key().length() + 2) + " (in " + file + ")");
    }
  }
}
