package io.securethrift.ingest.workload;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Keeps every entry and asserts the generator's promise that each entry points only at already flushed rows. */
final class RecordingSink implements EntrySink {

  final List<Entry> entries = new ArrayList<>();
  int flushes;
  boolean lastCallWasFlush;
  private final Set<Long> flushedRows = new HashSet<>();
  private final List<Long> pendingRows = new ArrayList<>();

  @Override
  public void add(Entry entry) {
    long prevRow = EntryFormat.parsePrevRow(entry.value());
    assertTrue(prevRow == EntryFormat.NO_PREVIOUS_ROW || flushedRows.contains(prevRow),
        () -> "entry " + entries.size() + " points at a row not flushed yet: " + entry);
    entries.add(entry);
    pendingRows.add(EntryFormat.parseRow(entry.row()));
    lastCallWasFlush = false;
  }

  @Override
  public void flush() {
    flushedRows.addAll(pendingRows);
    pendingRows.clear();
    flushes++;
    lastCallWasFlush = true;
  }
}
