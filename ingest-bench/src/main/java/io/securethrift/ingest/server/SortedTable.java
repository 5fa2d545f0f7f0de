package io.securethrift.ingest.server;

import io.securethrift.ingest.workload.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The embedded backend's table: entries in key order (row, family, qualifier, visibility, compared as unsigned
 * bytes), the newest value winning for a repeated key as in Accumulo. Writes append and the sort happens on the first
 * read after them, so ingest costs the server an append, not a tree insertion, and the benchmark measures the
 * transport. Thread-safe.
 *
 * <p>Appended entries are copied into large byte arrays rather than kept as objects, as Accumulo keeps its in-memory
 * map off the Java heap: a table of millions of small objects would have the garbage collector copy it again and
 * again during ingest, a cost larger than the security layer's and different from one iteration to the next.
 */
final class SortedTable {
  private static final Comparator<Entry> KEY_ORDER = Comparator
      .comparing(Entry::row, Arrays::compareUnsigned)
      .thenComparing(Entry::family, Arrays::compareUnsigned)
      .thenComparing(Entry::qualifier, Arrays::compareUnsigned)
      .thenComparing(Entry::visibility, Arrays::compareUnsigned);
  /** Bytes per chunk of appended entries; an entry never spans two, a larger one gets a chunk of its own. */
  private static final int CHUNK = 4 << 20;
  /** Per entry in a chunk: the five lengths (row, family, qualifier, visibility, value) before the bytes. */
  private static final int HEADER = 5 * Integer.BYTES;

  private final List<byte[]> chunks = new ArrayList<>();
  /** Bytes used in each chunk, by index. */
  private final List<Integer> used = new ArrayList<>();
  private Entry[] sorted = new Entry[0];
  private long bytes;
  private long received;

  synchronized void append(List<Entry> entries) {
    for (Entry e : entries) {
      copyIn(e);
      bytes += e.keyValueBytes();
    }
    received += entries.size();
  }

  private void copyIn(Entry e) {
    int size = HEADER + e.keyValueBytes();
    int last = chunks.size() - 1;
    if (last < 0 || used.get(last) + size > chunks.get(last).length) {
      chunks.add(new byte[Math.max(CHUNK, size)]);
      used.add(0);
      last++;
    }
    byte[] chunk = chunks.get(last);
    int at = used.get(last);
    byte[][] parts = {e.row(), e.family(), e.qualifier(), e.visibility(), e.value()};
    for (byte[] part : parts) {
      putInt(chunk, at, part.length);
      at += Integer.BYTES;
    }
    for (byte[] part : parts) {
      System.arraycopy(part, 0, chunk, at, part.length);
      at += part.length;
    }
    used.set(last, at);
  }

  synchronized long size() {
    return sortedView().length;
  }

  synchronized long bytes() {
    return bytes;
  }

  /** Entries appended since the last clear, rewrites of a key counted apart. */
  synchronized long received() {
    return received;
  }

  synchronized void clear() {
    chunks.clear();
    used.clear();
    sorted = new Entry[0];
    bytes = 0;
    received = 0;
  }

  /**
   * Hands {@code visitor} every entry held, in no order and without merging: rewrites of a key not yet read back are
   * all visited. Verification needs no order, and sorting the table would cost more than checking it.
   */
  synchronized void forEachHeld(Consumer<Entry> visitor) {
    for (Entry e : sorted) {
      visitor.accept(e);
    }
    forEachAppended(visitor);
  }

  private void forEachAppended(Consumer<Entry> visitor) {
    for (int c = 0; c < chunks.size(); c++) {
      byte[] chunk = chunks.get(c);
      int end = used.get(c);
      int at = 0;
      while (at < end) {
        byte[][] parts = new byte[5][];
        int data = at + HEADER;
        for (int i = 0; i < parts.length; i++) {
          int length = getInt(chunk, at + i * Integer.BYTES);
          parts[i] = Arrays.copyOfRange(chunk, data, data + length);
          data += length;
        }
        visitor.accept(new Entry(parts[0], parts[1], parts[2], parts[3], parts[4]));
        at = data;
      }
    }
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
    if (!chunks.isEmpty()) {
      List<Entry> merged = new ArrayList<>(Arrays.asList(sorted));
      forEachAppended(merged::add);
      Entry[] all = merged.toArray(new Entry[0]);
      // A stable sort keeps writes of one key in arrival order, so keeping the last keeps the newest.
      Arrays.sort(all, KEY_ORDER);
      sorted = newestPerKey(all);
      chunks.clear();
      used.clear();
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

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  private static int getInt(byte[] b, int at) {
    return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
  }
}
