package io.securethrift.core;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes reading a {@code securethrift.*} properties file ({@link SecurityConfigFiles#read}, which every
 * {@code --config} option uses): the file's bytes are the input, and a bad file may only raise a
 * {@link ConfigException} naming the key, and a file that loads must print ({@code toString} formats every value
 * back). Seeds: {@code SecurityConfigFuzzTestInputs/propertiesFile/}.
 */
class SecurityConfigFuzzTest {
  /** One file rewritten for every input; the reader is given a path, as in production. */
  private static final Path FILE;

  static {
    try {
      Path dir = Files.createTempDirectory("securethrift-config-fuzz");
      dir.toFile().deleteOnExit();
      FILE = dir.resolve("securethrift.properties");
      FILE.toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "60s")
  void propertiesFile(byte[] content) throws IOException {
    Files.write(FILE, content);
    ParserOracle.expectOnly(() -> SecurityConfigFiles.read(FILE, "--config").toString(), ConfigException.class);
  }
}
