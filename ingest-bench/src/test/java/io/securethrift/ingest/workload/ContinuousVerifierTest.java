package io.securethrift.ingest.workload;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContinuousVerifierTest {

  private static final byte[] INGEST_ID = "01234567-89ab-4def-8123-456789abcdef".getBytes(US_ASCII);
  private static final int F = 50;

  @Test
  void classifiesHandBuiltLists() {
    List<Entry> entries = List.of(
        entry(0, 0xa, EntryFormat.NO_PREVIOUS_ROW),
        entry(1, 0xb, 0xa),
        entry(2, 0xc, 0xb),
        entry(3, 0xd, 0x99),
        entry(4, 0xd, 0x98),
        entry(5, 0xa, EntryFormat.NO_PREVIOUS_ROW));

    VerifyResult result = ContinuousVerifier.verify(entries);

    // a and b are defined and referenced; c and d only defined; 98 and 99 only referenced.
    assertEquals(new VerifyResult(2, 2, 2, 0, List.of("0000000000000098", "0000000000000099")), result);
    assertFalse(result.passed());
  }

  @Test
  void emptyInputPasses() {
    assertEquals(new VerifyResult(0, 0, 0, 0, List.of()), ContinuousVerifier.verify(List.of()));
    assertTrue(new ContinuousVerifier().result().passed());
  }

  @Test
  void removedEntryLeavesItsRowUndefined() throws IOException {
    List<Entry> entries = generate();
    Entry removed = entries.remove(F + 7);

    VerifyResult result = ContinuousVerifier.verify(entries);

    assertEquals(1, result.undefined());
    assertEquals(List.of(new String(removed.row(), US_ASCII)), result.undefinedExamples());
    assertEquals(0, result.corrupt());
    assertFalse(result.passed());
  }

  @Test
  void flippedByteIsCorrupt() throws IOException {
    List<Entry> entries = generate();
    Entry original = entries.get(2 * F + 3);
    byte[] value = original.value().clone();
    value[60] ^= 0x20;
    entries.set(2 * F + 3, new Entry(original.row(), original.family(), original.qualifier(),
        original.visibility(), value));

    VerifyResult result = ContinuousVerifier.verify(entries);

    assertEquals(1, result.corrupt());
    assertEquals(0, result.undefined());
    assertFalse(result.passed());
  }

  @Test
  void incrementalUseMatchesOneShot() throws IOException {
    List<Entry> entries = generate();
    ContinuousVerifier verifier = new ContinuousVerifier();
    entries.subList(0, F).forEach(verifier::add);
    VerifyResult partial = verifier.result();
    entries.subList(F, entries.size()).forEach(verifier::add);

    assertEquals(new VerifyResult(0, F, 0, 0, List.of()), partial);
    assertEquals(ContinuousVerifier.verify(entries), verifier.result());
  }

  /** Heads and two linked levels; the last level is what nothing points at. */
  private static List<Entry> generate() throws IOException {
    RecordingSink sink = new RecordingSink();
    ContinuousIngestGenerator.builder().seed(11).flushInterval(F).build().generate(3 * F, sink);
    assertEquals(new VerifyResult(2 * F, F, 0, 0, List.of()), ContinuousVerifier.verify(sink.entries));
    return new ArrayList<>(sink.entries);
  }

  private static Entry entry(long count, long row, long prevRow) {
    return EntryFormat.encode(INGEST_ID, count, EntryFormat.formatRow(row), EntryFormat.formatColumn(1),
        EntryFormat.formatColumn(2), new byte[0], prevRow);
  }
}
