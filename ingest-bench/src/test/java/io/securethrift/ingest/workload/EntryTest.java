package io.securethrift.ingest.workload;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** An entry's bytes, equality and size accounting: what the verifier, the table and the batch writer rely on. */
class EntryTest {
  private static byte[] b(String s) {
    return s.getBytes(US_ASCII);
  }

  private static Entry entry(String row, String family, String qualifier, String visibility, String value) {
    return new Entry(b(row), b(family), b(qualifier), b(visibility), b(value));
  }

  @Test
  void equalityIsByContentOfEveryPart() {
    Entry e = entry("0000000000000001", "0001", "0002", "A&B", "value");
    assertEquals(e, entry("0000000000000001", "0001", "0002", "A&B", "value"));
    assertEquals(e.hashCode(), entry("0000000000000001", "0001", "0002", "A&B", "value").hashCode());
    assertNotEquals(e, entry("0000000000000002", "0001", "0002", "A&B", "value"));
    assertNotEquals(e, entry("0000000000000001", "0003", "0002", "A&B", "value"));
    assertNotEquals(e, entry("0000000000000001", "0001", "0003", "A&B", "value"));
    assertNotEquals(e, entry("0000000000000001", "0001", "0002", "A", "value"));
    assertNotEquals(e, entry("0000000000000001", "0001", "0002", "A&B", "other"));
    assertNotEquals(e, "0000000000000001 0001:0002 [A&B] value");
    assertEquals(e, e);
  }

  @Test
  void partsMovingBetweenFieldsMakeADifferentEntry() {
    // The same bytes in all, split differently: a hash of the concatenation would not tell them apart.
    Entry a = entry("ab", "c", "", "", "");
    Entry b = entry("a", "bc", "", "", "");
    assertNotEquals(a, b);
  }

  @Test
  void theArraysAreHeldNotCopied() {
    byte[] row = b("0000000000000001");
    byte[] value = b("v");
    Entry e = new Entry(row, b("f"), b("q"), new byte[0], value);
    assertSame(row, e.row());
    assertSame(value, e.value());
  }

  @Test
  void sizesCountEveryPartAndTheBuffersOverhead() {
    Entry e = entry("0000000000000001", "0001", "0002", "A&B", "0123456789");
    assertEquals(16 + 4 + 4 + 3 + 10, e.keyValueBytes());
    assertEquals(37 + 64, e.estimatedBytes());
    assertEquals(64, entry("", "", "", "", "").estimatedBytes(), "an empty entry still costs its objects");
  }

  @Test
  void printsLikeAccumulosShell() {
    assertEquals("0000000000000001 0001:0002 [A&B] value",
        entry("0000000000000001", "0001", "0002", "A&B", "value").toString());
    assertEquals("r f:q [] v", entry("r", "f", "q", "", "v").toString());
  }

  @Test
  void noPartMayBeMissing() {
    byte[] x = new byte[0];
    assertEquals("row", assertThrows(NullPointerException.class, () -> new Entry(null, x, x, x, x)).getMessage());
    assertEquals("family", assertThrows(NullPointerException.class, () -> new Entry(x, null, x, x, x))
        .getMessage());
    assertEquals("qualifier", assertThrows(NullPointerException.class, () -> new Entry(x, x, null, x, x))
        .getMessage());
    assertEquals("visibility", assertThrows(NullPointerException.class, () -> new Entry(x, x, x, null, x))
        .getMessage());
    assertEquals("value", assertThrows(NullPointerException.class, () -> new Entry(x, x, x, x, null)).getMessage());
  }
}
