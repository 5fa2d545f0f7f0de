package io.securethrift.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecurityConfigFilesTest {
  @TempDir
  Path dir;

  @Test
  void readsSecurethriftProperties() throws Exception {
    Path file = Files.writeString(dir.resolve("client.properties"), "securethrift.mode=sasl\nsecurethrift.sasl.qop="
        + "auth-conf\nsome.other.key=1\n");
    SecurityConfig config = SecurityConfigFiles.read(file, "--config");
    assertEquals(SecurityMode.SASL, config.mode());
    assertEquals(QualityOfProtection.AUTH_CONF, config.sasl().qop().get(0));
  }

  @Test
  void errorsNameTheKeyAndTheFile() throws Exception {
    Path file = Files.writeString(dir.resolve("bad.properties"), "securethrift.mode=ssl\n");
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfigFiles.read(file, "--config"));
    assertEquals("securethrift.mode: 'ssl' is not accepted; accepted values: none, tls, sasl, sasl-over-tls (in " + file
        + ")", e.getMessage());
    assertEquals(file.toString(), e.source());
    assertEquals("securethrift.mode", e.key());
    Path missing = dir.resolve("missing.properties");
    e = assertThrows(ConfigException.class, () -> SecurityConfigFiles.read(missing, "--config"));
    assertEquals("--config: cannot read " + missing + ": " + missing, e.getMessage());
  }

  @Test
  void malformedEscapeIsAConfigError() throws Exception {
    Path file = Files.writeString(dir.resolve("escape.properties"), "securethrift.mode=\\u12\n");
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfigFiles.read(file, "--config"));
    // The JDK's own backslash, escaped as every backslash in a message is (PeerText), once.
    assertEquals("--config: " + file + " is not a valid properties file: Malformed \\\\uxxxx encoding.",
        e.getMessage());
  }

  @Test
  void textThatIsNotUtf8IsAConfigError() throws Exception {
    Path file = Files.write(dir.resolve("latin1.properties"), new byte[] {'a', '=', (byte) 0xe9, '\n'});
    ConfigException e = assertThrows(ConfigException.class, () -> SecurityConfigFiles.read(file, "--config"));
    assertEquals("--config: " + file + " is not UTF-8 text", e.getMessage());
  }
}
