package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.ConfigException;
import io.securethrift.core.testing.ParserOracle;
import java.nio.charset.StandardCharsets;

/**
 * The mode parser on any text: it either reads a mode whose canonical name reads back as the same mode, or refuses
 * with a {@link ConfigException} naming the option; nothing else escapes, and it allocates within the input's size.
 */
class BenchModeFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> {
      BenchMode mode = BenchMode.parse("--modes", text);
      assertEquals(mode, BenchMode.parse("--modes", mode.name()), "the canonical name reads back: " + mode);
    }, ConfigException.class);
  }
}
