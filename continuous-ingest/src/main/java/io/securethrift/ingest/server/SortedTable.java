package io.securethrift.ingest.server;

import io.securethrift.ingest.workload.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The embedded backend's table: entries in key order (row, family, qualifier, visibility, compared as unsigned
 * bytes), the newest value winning for a repeated key as in Accumulo. Writes append and the sort happens on the first
 * read after them, so ingest costs the server an append, not a tree insertion, and the benchmark measures the
 * transport. Thread-safe.
 */
final class SortedTable {
  private static final Comparator<Entry> KEY_ORDER = Comparator
      .comparing(Entry::row, Arrays::compareUnsigned)
      .thenComparing(Entry::family, Arrays::compareUnsigned)
      .thenComparing(Entry::qualifier, Arrays::compareUnsigned)
      .thenComparing(Entry::visibility, Arrays::compareUnsigned);

  private List<Entry> appended = new ArrayList<>();
  private Entry[] sorted = new Entry[0];
  private long bytes;

  synchronized void append(List<Entry> entries) {
    appended.addAll(entries);
    for (Entry e : entries) {
      bytes += e.keyValueBytes();
    }
  }

  synchronized long size() {
    return sortedView().length;
  }

  synchronized long bytes() {
    return bytes;
  }

  synchronized void clear() {
    appended = new ArrayList<>();
    sorted = new Entry[0];
    bytes = 0;
  }

  /** Up to {@code max} entries whose key is after {@code after}'s key (null: from the first entry). */
  synchronized List<Entry> after(Entry after, int max) {
    Entry[] view = sortedView();
    int from = 0;
    if (after != null) {
      int i = Arrays.binarySearch(view, after, KEY_ORDER);
      from = i >= 0 ? i + 1 : -i - 1;
    }
    return List.of(Arrays.copyOfRange(view, from, Math.min(view.length, from + max)));
  }

  private Entry[] sortedView() {
    if (!appended.isEmpty()) {
      Entry[] merged = Arrays.copyOf(sorted, sorted.length + appended.size());
      for (int i = 0; i < appended.size(); i++) {
        merged[sorted.length + i] = appended.get(i);
      }
      // A stable sort keeps writes of one key in arrival order, so keeping the last keeps the newest.
      Arrays.sort(merged, KEY_ORDER);
      sorted = newestPerKey(merged);
      appended = new ArrayList<>();
    }
    return sorted;
  }

  private static Entry[] newestPerKey(Entry[] ordered) {
    int kept = 0;
    for (int i = 0; i < ordered.length; i++) {
      if (i + 1 < ordered.length && KEY_ORDER.compare(ordered[i], ordered[i + 1]) == 0) {
        continue;
      }
      ordered[kept++] = ordered[i];
    }
    return kept == ordered.length ? ordered : Arrays.copyOf(ordered, kept);
  }
}
