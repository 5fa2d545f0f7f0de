package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Progress lines go where the log was pointed (standard error), one per step with the seconds since the start. */
class ProgressLogTest {
  @Test
  void eachStepIsOneLineOnStandardErrorWithItsElapsedSeconds() {
    PrintStream err = System.err;
    PrintStream out = System.out;
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      ProgressLog progress = new ProgressLog(System.err);
      progress.step("warm-up round 1 of 3");
      progress.step("round 4: widest interval +/-2.9 points");
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
    List<String> lines = errBytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).matches("\\[ {0,3}\\d+ s\\] warm-up round 1 of 3"), lines.get(0));
    assertTrue(lines.get(1).matches("\\[ {0,3}\\d+ s\\] round 4: widest interval \\+/-2\\.9 points"), lines.get(1));
    assertEquals(9, lines.get(0).indexOf(']') + 2, "the seconds are right-aligned in four columns");
    assertEquals("", outBytes.toString(StandardCharsets.UTF_8), "standard output stays for the results");
  }
}
