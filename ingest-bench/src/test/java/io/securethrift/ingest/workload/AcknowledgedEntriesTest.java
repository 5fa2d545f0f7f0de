package io.securethrift.ingest.workload;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The check of a table against what its writer was told was written, on tables kept as Accumulo keeps them: one
 * version per key, the last write winning, scanned in key order.
 */
class AcknowledgedEntriesTest {
  private static final int F = 10;

  private final AcknowledgedEntries acknowledged = new AcknowledgedEntries();
  /** The table: key (row, family, qualifier) to the last entry written under it. */
  private final TreeMap<String, Entry> table = new TreeMap<>();
  private final List<Entry> written = new ArrayList<>();

  @Test
  void tableHoldingEveryWriteHoldsEveryAcknowledgedEntry() throws IOException {
    long entries = write(3 * 26 * F);

    assertEquals(entries, acknowledged.acknowledged());
    assertEquals(entries, found(), "rewritten heads count as held through their rewrite");
    assertTrue(entries > table.size(), "the run rewrote list heads: " + entries + " writes, " + table.size() + " keys");
  }

  @Test
  void lostEntryIsMissing() throws IOException {
    long entries = write(26 * F);
    table.remove(key(written.get(F + 3)));

    assertEquals(entries - 1, found());
  }

  @Test
  void lostRewriteIsMissingThoughItsKeyIsThere() throws IOException {
    long entries = write(26 * F);
    // The last flush rewrote head 0 to point at the next list; the table kept the head's first version instead.
    Entry head = written.get(0);
    Entry rewrite = written.stream().filter(e -> key(e).equals(key(head)) && e != head).findFirst().orElseThrow();
    table.put(key(head), head);

    assertEquals(entries - 1, found(), "the head's first write is held through its rewrite; the rewrite is lost: "
        + rewrite);
  }

  @Test
  void entriesAfterTheLastAcknowledgementAreNotRequired() throws IOException {
    long entries = write(F);
    Entry pending = EntryFormat.encode("01234567-89ab-4def-8123-456789abcdef".getBytes(US_ASCII), entries,
        EntryFormat.formatRow(7), EntryFormat.formatColumn(1), EntryFormat.formatColumn(2), new byte[0],
        EntryFormat.NO_PREVIOUS_ROW);
    acknowledged.add(pending);

    assertEquals(entries, acknowledged.acknowledged());
    assertEquals(entries, found());
  }

  @Test
  void corruptCopyHoldsNothing() throws IOException {
    long entries = write(F);
    Entry original = written.get(4);
    byte[] value = original.value().clone();
    value[40] ^= 0x01;
    table.put(key(original), new Entry(original.row(), original.family(), original.qualifier(),
        original.visibility(), value));

    assertEquals(entries - 1, found());
  }

  @Test
  void tableOutOfKeyOrderIsRejected() throws IOException {
    write(F);
    AcknowledgedEntries.TableCheck check = acknowledged.check();
    List<Entry> entries = new ArrayList<>(table.values());
    check.add(entries.get(1));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> check.add(entries.get(0)));
    assertTrue(e.getMessage().contains("key order"), e.getMessage());
  }

  /** Writes at least {@code entries} entries, acknowledging each flush, into the table. */
  private long write(long entries) throws IOException {
    ContinuousIngestGenerator generator = ContinuousIngestGenerator.builder().seed(5).flushInterval(F).build();
    return generator.generate(entries, new EntrySink() {
      @Override
      public void add(Entry entry) {
        acknowledged.add(entry);
        written.add(entry);
        table.put(key(entry), entry);
      }

      @Override
      public void flush() {
        acknowledged.acknowledge();
      }
    });
  }

  private long found() {
    AcknowledgedEntries.TableCheck check = acknowledged.check();
    table.values().forEach(check::add);
    return check.found();
  }

  private static String key(Entry e) {
    return new String(e.row(), US_ASCII) + new String(e.family(), US_ASCII) + new String(e.qualifier(), US_ASCII);
  }
}
