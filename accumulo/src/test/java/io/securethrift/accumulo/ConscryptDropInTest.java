package io.securethrift.accumulo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.accumulo.conscrypt.ConscryptDropIn;
import io.securethrift.accumulo.conscrypt.ConscryptFirstProvider;
import io.securethrift.core.ConfigException;
import io.securethrift.core.DropInSecurityFile;
import io.securethrift.sasl.SaslProviderDropIn;
import io.securethrift.sasl.SecureThriftSaslProvider;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in in a fresh JVM, installed only through the security file {@link DropInSecurityFile} writes for it and
 * the SASL provider together: unmodified {@code SSLContext.getInstance} calls get Conscrypt, JSSE initialises and
 * handshakes by name in the same process, and the two interoperate; GSSAPI SASL comes from the SASL provider and every
 * other SASL mechanism from the JDK.
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
    assertEquals(SecureThriftSaslProvider.NAME, out.getProperty("second.provider"));
    assertEquals(SecureThriftSaslProvider.NAME + " SunSASL SunSASL SunSASL", String.join(" ",
        out.getProperty("sasl.GSSAPI.provider"), out.getProperty("sasl.PLAIN.provider"),
        out.getProperty("sasl.CRAM-MD5.provider"), out.getProperty("sasl.EXTERNAL.provider")));
    assertEquals("aes-gcm-preferred", out.getProperty("sasl.privacy"));
  }

  @Test
  void theFileListsTheDropInsFirstThenThisJvmsProvidersWithoutGaps() {
    String text = DropInSecurityFile.text(List.of(ConscryptDropIn.NAME, SaslProviderDropIn.NAME));
    List<String> entries = text.lines().filter(l -> l.startsWith("security.provider.")).collect(Collectors.toList());
    assertEquals("security.provider.1=" + ConscryptFirstProvider.class.getName(), entries.get(0));
    assertEquals("security.provider.2=" + SecureThriftSaslProvider.class.getName(), entries.get(1));
    for (int i = 0; i < entries.size(); i++) {
      assertTrue(entries.get(i).startsWith("security.provider." + (i + 1) + "="), text);
    }
    assertTrue(entries.stream().noneMatch(e -> e.endsWith("=JdkSASL")), text);
    assertTrue(entries.stream().anyMatch(e -> e.endsWith("=SunSASL")), text);
  }

  @Test
  void anUnknownDropInIsNamedWithTheAvailableOnes() {
    ConfigException e = assertThrows(ConfigException.class, () -> DropInSecurityFile.text(List.of("openssl")));
    assertTrue(e.getMessage().contains("'openssl' is not on the class path; available: conscrypt, sasl"),
        e.getMessage());
  }

  private Properties probe() throws IOException, InterruptedException {
    Path keyStore = Stores.keyStore(dir, "server", Stores.KEY_PASSWORD);
    Path trustStore = Stores.trustStore(dir);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(List.of(java.toString(), DropIn.jvmOption(
        DropInSecurityFile.write(dir.resolve("both.security"), List.of(ConscryptDropIn.NAME, SaslProviderDropIn.NAME))),
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
