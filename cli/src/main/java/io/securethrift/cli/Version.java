package io.securethrift.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code bin/securethrift --version}: the version and git commit the launcher was built from. */
final class Version implements IVersionProvider {
  static final String RESOURCE = "securethrift-version.properties";

  @Override
  public String[] getVersion() {
    return new String[] {line(load())};
  }

  static Properties load() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return p;
  }

  /** {@code securethrift <version> (commit <id>)}, or {@code unknown commit} when built without git. */
  static String line(Properties p) {
    String version = known(p.getProperty("version"));
    String commit = known(p.getProperty("commit"));
    return "securethrift " + (version == null ? "unknown version" : version) + " ("
        + (commit == null ? "unknown commit" : "commit " + commit) + ")";
  }

  /** A value, or null when absent or left unfiltered ({@code ${...}}). */
  private static String known(String value) {
    return value == null || value.isBlank() || value.startsWith("${") ? null : value.trim();
  }
}
