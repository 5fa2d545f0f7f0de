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
}
