package io.securethrift.harness;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.securethrift.core.testing.ParserOracle;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes the reader of benchmark result files ({@link ResultsFile#parse}, through {@link Json}), which
 * {@code compare} and {@code docs} run on files a user names: it returns, or refuses with an
 * {@link IllegalArgumentException} naming the file. Seeds: {@code ResultsFileFuzzTestInputs/read/}.
 */
class ResultsFileFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void read(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    ParserOracle.expectOnlyWithinAllocation(input.length, () -> ResultsFile.parse(text, "run.json", "bench"),
        IllegalArgumentException.class);
  }
}
