package io.securethrift.ingest.workload;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContinuousIngestGeneratorTest {

  private static final int F = 10;
  /** Heads, 24 linked levels, then F - 1 rewritten heads. */
  private static final int CYCLE = 26 * F - 1;

  @Test
  void threeFlushIntervalsAreHeadsAndTwoLevels() throws IOException {
    RecordingSink sink = new RecordingSink();
    long written = generator(1).generate(3 * F, sink);

    assertEquals(3 * F, written);
    assertEquals(3 * F, sink.entries.size());
    assertEquals(3, sink.flushes);
    VerifyResult result = ContinuousVerifier.verify(sink.entries);
    assertTrue(result.passed(), result::toString);
    assertEquals(new VerifyResult(2 * F, F, 0, 0, List.of()), result);
  }

  @Test
  void fullCyclesLeaveOneUnreferencedRowEach() throws IOException {
    RecordingSink sink = new RecordingSink();
    long written = generator(2).generate(2L * CYCLE + 3 * F, sink);

    assertEquals(2L * CYCLE + 3 * F, written);
    // Per full cycle 25F distinct rows (rewritten heads reuse their rows), all referenced but node[24][0];
    // the partial third cycle adds heads and two levels, of which the last level is unreferenced.
    VerifyResult result = ContinuousVerifier.verify(sink.entries);
    assertEquals(new VerifyResult(2 * (25 * F - 1) + 2 * F, 2 + F, 0, 0, List.of()), result);
  }

  @Test
  void rewrittenHeadsKeepTheirKeyAndPointAtTheLastLevel() throws IOException {
    RecordingSink sink = new RecordingSink();
    generator(3).generate(CYCLE, sink);

    for (int i = 0; i < F - 1; i++) {
      Entry head = sink.entries.get(i);
      Entry rewritten = sink.entries.get(25 * F + i);
      Entry lastLevelNext = sink.entries.get(24 * F + i + 1);
      assertEquals(text(head.row()) + text(head.family()) + text(head.qualifier()),
          text(rewritten.row()) + text(rewritten.family()) + text(rewritten.qualifier()));
      assertEquals(EntryFormat.parseRow(lastLevelNext.row()), EntryFormat.parsePrevRow(rewritten.value()));
    }
    for (int depth = 1; depth < ContinuousIngestGenerator.DEPTH; depth++) {
      for (int i = 0; i < F; i++) {
        assertEquals(EntryFormat.parseRow(sink.entries.get((depth - 1) * F + i).row()),
            EntryFormat.parsePrevRow(sink.entries.get(depth * F + i).value()));
      }
    }
  }

  @Test
  void stopsAtTheFirstFlushReachingTheTargetAndCountsOn() throws IOException {
    ContinuousIngestGenerator generator = generator(4);
    RecordingSink sink = new RecordingSink();

    assertEquals(2 * F, generator.generate(F + 1, sink));
    assertTrue(sink.lastCallWasFlush);
    assertEquals(F, generator.generate(1, sink));
    assertEquals(3 * F, generator.entriesWritten());

    String id = generator.ingestId().toString();
    for (int i = 0; i < sink.entries.size(); i++) {
      String value = text(sink.entries.get(i).value());
      assertEquals(id, value.substring(0, 36));
      assertEquals(String.format("%016x", i), value.substring(37, 53), "count of entry " + i);
    }
  }

  @Test
  void timeBasedRunsEndAtTheFirstFlushAfterTheDurationAndVerify() throws IOException {
    RecordingSink sink = new RecordingSink();
    long start = System.nanoTime();
    long written = generator(6).generateFor(Duration.ofMillis(30), sink);

    assertTrue(System.nanoTime() - start >= Duration.ofMillis(30).toNanos(), "ran for the whole duration");
    assertEquals(written, sink.entries.size());
    assertTrue(written >= F, "at least one flush interval: " + written);
    VerifyResult result = ContinuousVerifier.verify(sink.entries);
    assertTrue(result.passed(), result::toString);
    assertThrows(IllegalArgumentException.class, () -> generator(6).generateFor(Duration.ZERO, sink));
  }

  @Test
  void rowsAndColumnsStayInRange() throws IOException {
    RecordingSink sink = new RecordingSink();
    ContinuousIngestGenerator.builder().seed(5).flushInterval(F).rowRange(1000, 1010).visibility(
        "A|B".getBytes(US_ASCII)).build().generate(CYCLE, sink);

    for (Entry entry : sink.entries) {
      long row = EntryFormat.parseRow(entry.row());
      assertTrue(row >= 1000 && row < 1010, entry::toString);
      assertTrue(Integer.parseInt(text(entry.family()), 16) < ContinuousIngestGenerator.COLUMN_BOUND);
      assertTrue(Integer.parseInt(text(entry.qualifier()), 16) < ContinuousIngestGenerator.COLUMN_BOUND);
      assertEquals("A|B", text(entry.visibility()));
      assertTrue(EntryFormat.isValid(entry));
    }
  }

  @Test
  void seedMakesRunsReproducible() throws IOException {
    RecordingSink first = new RecordingSink();
    RecordingSink second = new RecordingSink();
    RecordingSink other = new RecordingSink();
    generator(6).generate(CYCLE, first);
    generator(6).generate(CYCLE, second);
    generator(7).generate(CYCLE, other);

    assertEquals(first.entries, second.entries);
    assertNotEquals(first.entries, other.entries);
  }

  @Test
  void rejectsBadConfiguration() {
    ContinuousIngestGenerator.Builder builder = ContinuousIngestGenerator.builder();
    assertThrows(IllegalArgumentException.class, () -> builder.rowRange(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> builder.rowRange(10, 10));
    assertThrows(IllegalArgumentException.class, () -> builder.flushInterval(0));
    assertThrows(IllegalArgumentException.class, () -> builder.build().generate(0, new RecordingSink()));
  }

  private static ContinuousIngestGenerator generator(long seed) {
    return ContinuousIngestGenerator.builder().seed(seed).flushInterval(F).build();
  }

  private static String text(byte[] bytes) {
    return new String(bytes, US_ASCII);
  }
}
