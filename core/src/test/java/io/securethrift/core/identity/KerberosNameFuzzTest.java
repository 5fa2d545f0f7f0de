package io.securethrift.core.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes {@link KerberosName#parse}, the one parser of principal names (from securethrift's settings and Accumulo's
 * {@code general.kerberos.principal}): it throws nothing but {@link IllegalArgumentException}, a name it accepts
 * prints back as given, and expanding {@code _HOST} keeps it a principal. Seeds:
 * {@code KerberosNameFuzzTestInputs/parse/}.
 */
class KerberosNameFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void parse(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      KerberosName name = KerberosName.parse(text);
      assertEquals(text, name.toString());
      KerberosName expanded = name.withHostExpanded(() -> "Node.Example");
      assertEquals(expanded, KerberosName.parse(expanded.toString()));
    }, IllegalArgumentException.class);
  }
}
