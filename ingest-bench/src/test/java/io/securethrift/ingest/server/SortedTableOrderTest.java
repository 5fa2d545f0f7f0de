package io.securethrift.ingest.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.ingest.workload.Entry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table's key order, Accumulo's: row, family, qualifier, visibility, each compared as unsigned bytes, the newest
 * value of a key winning, whether the rewrite arrives in the same append, a later one, or after a read sorted the rest.
 */
class SortedTableOrderTest {
  private static byte[] b(String s) {
    return s.getBytes(US_ASCII);
  }

  private static Entry entry(byte[] row, String family, String qualifier, String visibility, String value) {
    return new Entry(row, b(family), b(qualifier), b(visibility), b(value));
  }

  private static Entry entry(String row, String family, String qualifier, String visibility, String value) {
    return entry(b(row), family, qualifier, visibility, value);
  }

  private static List<Entry> all(SortedTable table) {
    return table.after(null, Integer.MAX_VALUE);
  }

  @Test
  void keysCompareRowThenFamilyThenQualifierThenVisibility() {
    SortedTable table = new SortedTable();
    Entry a = entry("r1", "f1", "q1", "", "1");
    Entry b = entry("r1", "f1", "q1", "A", "2");
    Entry c = entry("r1", "f1", "q2", "", "3");
    Entry d = entry("r1", "f2", "a", "", "4");
    Entry e = entry("r2", "a", "a", "", "5");
    table.append(List.of(e, d, c, b, a));
    assertEquals(List.of(a, b, c, d, e), all(table));
  }

  @Test
  void bytesCompareUnsignedAndAShorterPrefixSortsFirst() {
    SortedTable table = new SortedTable();
    Entry high = entry(new byte[] {(byte) 0xff}, "f", "q", "", "high");
    Entry low = entry(new byte[] {0x7f}, "f", "q", "", "low");
    Entry prefix = entry(new byte[] {0x7f, 0x00}, "f", "q", "", "longer");
    table.append(List.of(high, prefix, low));
    assertEquals(List.of(low, prefix, high), all(table), "0xff is 255, after 0x7f, not -1 before it");
  }

  @Test
  void theNewestWriteOfAKeyWinsWhereverItArrives() {
    SortedTable table = new SortedTable();
    table.append(List.of(entry("r", "f", "q", "", "first"), entry("r", "f", "q", "", "second")));
    assertEquals(List.of(entry("r", "f", "q", "", "second")), all(table), "within one append");
    table.append(List.of(entry("r", "f", "q", "", "third")));
    assertEquals(List.of(entry("r", "f", "q", "", "third")), all(table), "after the rest was sorted");
    table.append(List.of(entry("r", "f", "q", "", "fourth")));
    table.append(List.of(entry("r", "f", "q", "", "fifth")));
    assertEquals(List.of(entry("r", "f", "q", "", "fifth")), all(table), "across appends not yet read");
    assertEquals(1, table.size());
    assertEquals(5, table.received(), "every write was received");
    // Keys of 3 bytes, values of 5, 6, 5, 6 and 5: every write counts, rewrites included.
    assertEquals(5 * 3 + 27, table.bytes(), "bytes count what arrived, rewrites included");
  }

  @Test
  void forEachHeldVisitsSortedAndAppendedEntriesWithoutMerging() {
    SortedTable table = new SortedTable();
    table.append(List.of(entry("b", "f", "q", "", "1"), entry("a", "f", "q", "", "1")));
    assertEquals(2, table.size());
    table.append(List.of(entry("a", "f", "q", "", "2")));
    List<Entry> held = new ArrayList<>();
    table.forEachHeld(held::add);
    assertEquals(List.of(entry("a", "f", "q", "", "1"), entry("b", "f", "q", "", "1"), entry("a", "f", "q", "", "2")),
        held, "the sorted part in order, then the rewrite not yet merged");
    assertEquals(2, table.size());
    held.clear();
    table.forEachHeld(held::add);
    assertEquals(List.of(entry("a", "f", "q", "", "2"), entry("b", "f", "q", "", "1")), held, "merged by the read");
  }

  @Test
  void afterAKeyThatIsNotHeldStartsAtTheNextOne() {
    SortedTable table = new SortedTable();
    table.append(List.of(entry("a", "f", "q", "", "1"), entry("c", "f", "q", "", "3"),
        entry("e", "f", "q", "", "5")));
    assertEquals(List.of(entry("c", "f", "q", "", "3")), table.after(entry("b", "", "", "", ""), 1));
    assertEquals(List.of(entry("e", "f", "q", "", "5")), table.after(entry("c", "f", "q", "", "anything"), 5),
        "after a held key: the value does not matter");
    assertEquals(List.of(), table.after(entry("e", "f", "q", "", ""), 5));
    assertEquals(List.of(), table.after(entry("z", "", "", "", ""), 5));
    assertEquals(List.of(), table.after(null, 0));
  }

  @Test
  void anEmptyTableHoldsNothing() {
    SortedTable table = new SortedTable();
    assertEquals(0, table.size());
    assertEquals(0, table.bytes());
    assertEquals(List.of(), all(table));
    List<Entry> held = new ArrayList<>();
    table.forEachHeld(held::add);
    assertEquals(List.of(), held);
    table.append(List.of());
    assertEquals(0, table.received());
  }
}
