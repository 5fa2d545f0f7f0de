package io.securethrift.ingest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.securethrift.ingest.workload.Entry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table's byte chunks hand back every entry as written, across chunk boundaries, and still scan in key order. */
class SortedTableTest {
  private static Entry entry(int row, String value) {
    return new Entry(String.format("%016x", row).getBytes(StandardCharsets.US_ASCII),
        "cf".getBytes(StandardCharsets.US_ASCII), "cq".getBytes(StandardCharsets.US_ASCII), new byte[0],
        value.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void entriesSpanningSeveralChunksComeBackWholeAndScanInKeyOrderNewestWinning() {
    SortedTable table = new SortedTable();
    List<Entry> written = new ArrayList<>();
    // About 100 bytes each with the lengths: 100,000 of them fill more than two 4 MB chunks.
    String value = "v".repeat(60);
    for (int i = 100_000; i > 0; i--) {
      written.add(entry(i, value + i));
    }
    // One entry larger than a chunk gets a chunk of its own.
    written.add(entry(0, "x".repeat(5 << 20)));
    for (int from = 0; from < written.size(); from += 1000) {
      table.append(written.subList(from, Math.min(written.size(), from + 1000)));
    }
    table.append(List.of(entry(7, "newest")));

    List<Entry> held = new ArrayList<>();
    table.forEachHeld(held::add);
    List<Entry> expected = new ArrayList<>(written);
    expected.add(entry(7, "newest"));
    assertEquals(expected, held, "every entry, in the order written, rewrites included");
    assertEquals(written.size() + 1, table.received());

    List<Entry> first = table.after(null, 3);
    assertEquals(List.of(entry(0, "x".repeat(5 << 20)), entry(1, value + 1), entry(2, value + 2)), first);
    assertEquals(List.of(entry(7, "newest")), table.after(entry(6, ""), 1));
    assertEquals(written.size(), table.size(), "the rewrite of row 7 replaced it");
    table.clear();
    assertEquals(0, table.received());
    assertEquals(0, table.size());
  }
}
