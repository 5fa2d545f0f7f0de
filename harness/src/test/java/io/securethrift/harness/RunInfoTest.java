package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunInfoTest {
  /** The end's load average is read at the end, not copied from the start. */
  @Test
  void theEndIsReadAtTheEnd() {
    RunInfo.Start start = new RunInfo.Start("abc", -42, Instant.EPOCH, System.nanoTime());
    RunInfo info = start.finish();
    assertEquals(-42, info.loadAverageStart());
    assertTrue(info.loadAverageEnd() != -42, "end " + info.loadAverageEnd());
    assertEquals(Runtime.getRuntime().availableProcessors(), info.cores());
    assertTrue(info.wallTime().compareTo(Duration.ZERO) >= 0 && info.jdk().contains(Runtime.version().toString()));
    assertEquals("abc", info.toMap().get("commit"));
  }
}
