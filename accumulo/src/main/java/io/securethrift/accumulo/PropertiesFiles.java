package io.securethrift.accumulo;

import io.securethrift.core.ConfigException;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Reads a Java properties file in UTF-8: Accumulo 1.x's {@code client.conf} and 2.x's {@code accumulo.properties} and
 * {@code accumulo-client.properties}.
 */
final class PropertiesFiles {
  private PropertiesFiles() {}

  static SourceFile read(Path path) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (CharacterCodingException e) {
      throw new ConfigException(path.toString(), "not UTF-8 text; Accumulo's properties files are read as UTF-8");
    } catch (IllegalArgumentException e) {
      // Properties.load's only complaint about content: a backslash-u escape without four hex digits.
      throw new ConfigException(path.toString(), "not a valid properties file: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
    Map<String, String> entries = new LinkedHashMap<>();
    properties.stringPropertyNames().stream().sorted().forEach(k -> entries.put(k, properties.getProperty(k)));
    return new SourceFile(path, entries);
  }
}
