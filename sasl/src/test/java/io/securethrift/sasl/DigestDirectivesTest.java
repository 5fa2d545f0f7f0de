package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.core.CipherStrength;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DigestDirectivesTest {
  private static Optional<String> value(String message, String name) {
    return DigestDirectives.value(message.getBytes(StandardCharsets.UTF_8), name);
  }

  @Test
  void readsQuotedAndPlainValuesAsTheJdkWritesThem() {
    String challenge = "realm=\"EXAMPLE\",nonce=\"a\\\"b\",qop=\"auth-conf,auth\",charset=utf-8,algorithm=md5-sess,"
        + "cipher=\"3des,rc4\"";
    assertEquals(Optional.of("auth-conf,auth"), value(challenge, "qop"));
    assertEquals(Optional.of("a\"b"), value(challenge, "nonce"));
    assertEquals(Optional.of("utf-8"), value(challenge, "charset"));
    assertEquals(Optional.of("3des,rc4"), value(challenge, "CIPHER"));
    assertEquals(Optional.of("rc4"), value("username=\"x\", cipher=rc4 , qop=auth-conf", "cipher"));
  }

  @Test
  void aQuotedValueCannotPassForADirective() {
    assertEquals(Optional.of("3des"), value("realm=\"x,cipher=\\\"rc4-40\\\"\",cipher=\"3des\"", "cipher"));
    assertEquals(Optional.empty(), value("realm=\"x,qop=auth", "qop"));
    assertEquals(Optional.empty(), value("realm=x", "qop"));
  }

  @Test
  void strengthPropertyListsTheMinimumAndStronger() {
    assertEquals("high", DigestCiphers.strengthProperty(CipherStrength.HIGH));
    assertEquals("high,medium", DigestCiphers.strengthProperty(CipherStrength.MEDIUM));
    assertEquals("high,medium,low", DigestCiphers.strengthProperty(CipherStrength.LOW));
  }
}
