package io.securethrift.ingest.workload;

import java.nio.charset.StandardCharsets;

/**
 * The entries a writer was told were written, to check a table against once the writer came through faults: every
 * acknowledged entry must be in the table, as written or overwritten by a later write of its key. For a server that
 * cannot count what it received (Accumulo: a resent mutation overwrites itself), this is what "nothing acknowledged
 * was lost" means; the verify counts alone miss a lost rewrite of a list head, which only turns a referenced row into
 * an unreferenced one.
 *
 * <p>The entries must come from one generator, whose counts grow with every write. Each costs 16 bytes (its row and
 * count as primitive longs). Thread-safe: the writer's thread adds and acknowledges while others read the count.
 */
public final class AcknowledgedEntries {
  private final LongList rows = new LongList();
  private final LongList counts = new LongList();
  private int acknowledged;

  /** Records an entry handed to the writer, not yet acknowledged. */
  public synchronized void add(Entry entry) {
    rows.add(EntryFormat.parseRow(entry.row()));
    counts.add(EntryFormat.parseCount(entry.value()));
  }

  /** Every entry added so far was acknowledged: the writer's flush returned. */
  public synchronized void acknowledge() {
    acknowledged = rows.size();
  }

  /** How many entries were acknowledged so far. */
  public synchronized long acknowledged() {
    return acknowledged;
  }

  /** Starts checking a table against the entries acknowledged so far. */
  public TableCheck check() {
    return new TableCheck();
  }

  /** A table's entries, fed in key order (as a scan of a sorted table returns them); not thread-safe. */
  public final class TableCheck {
    private final LongList tableRows = new LongList();
    /** The largest count of each row's entries. */
    private final LongList tableCounts = new LongList();

    private TableCheck() {}

    /** Records one entry of the table; a corrupt one holds nothing acknowledged (the verifier counts it). */
    public void add(Entry entry) {
      if (!EntryFormat.isValid(entry)) {
        return;
      }
      long row = EntryFormat.parseRow(entry.row());
      long count = EntryFormat.parseCount(entry.value());
      int last = tableRows.size() - 1;
      if (last >= 0 && row < tableRows.get(last)) {
        throw new IllegalArgumentException("the table's entries must come in key order, but row "
            + new String(entry.row(), StandardCharsets.US_ASCII) + " came after a greater one");
      }
      if (last >= 0 && row == tableRows.get(last)) {
        tableCounts.set(last, Math.max(count, tableCounts.get(last)));
      } else {
        tableRows.add(row);
        tableCounts.add(count);
      }
    }

    /** How many acknowledged entries the table holds, as written or overwritten by a later write of their key. */
    public long found() {
      synchronized (AcknowledgedEntries.this) {
        long found = 0;
        for (int i = 0; i < acknowledged; i++) {
          int at = tableRows.search(rows.get(i));
          if (at >= 0 && tableCounts.get(at) >= counts.get(i)) {
            found++;
          }
        }
        return found;
      }
    }
  }
}
