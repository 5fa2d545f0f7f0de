package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in in a fresh JVM, installed only through the shipped security file: unmodified
 * {@code SSLContext.getInstance} calls get Conscrypt, JSSE initialises and handshakes by name in the same process, and
 * the two interoperate.
 */
class ConscryptDropInTest {
  @TempDir Path dir;

  @Test
  void conscryptAnswersByDefaultAndJsseStillWorksByName() throws Exception {
    Properties out = probe();
    assertEquals(ConscryptFirstProvider.NAME, out.getProperty("first.provider"));
    assertEquals(ConscryptFirstProvider.NAME, out.getProperty("tlsv12.provider"));
    assertEquals(ConscryptFirstProvider.NAME, out.getProperty("default.provider"));
    assertTrue(out.getProperty("conscrypt.server.jsse.client").startsWith("org.conscrypt."), out.toString());
    assertTrue(out.getProperty("jsse.server.conscrypt.client").startsWith("sun.security.ssl."), out.toString());
    assertEquals("true", out.getProperty("conscrypt.accepts.suite"));
    assertEquals("false", out.getProperty("jsse.accepts.suite"), "the suite tells the engines apart");
  }

  private Properties probe() throws IOException, InterruptedException {
    Path keyStore = Stores.keyStore(dir, "server", Stores.KEY_PASSWORD);
    Path trustStore = Stores.trustStore(dir);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(List.of(java.toString(), DropIn.jvmOption(ConscryptFirstProvider.writeSecurityFile(dir)),
        "-cp", System.getProperty("java.class.path"), DropInProbe.class.getName(), keyStore.toString(),
        new String(Stores.KEY_PASSWORD), trustStore.toString(), new String(Stores.TRUST_PASSWORD)))
        .redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not exit");
      assertEquals(0, process.exitValue(), output);
      Properties properties = new Properties();
      properties.load(new StringReader(output));
      return properties;
    } finally {
      process.destroyForcibly();
    }
  }
}
