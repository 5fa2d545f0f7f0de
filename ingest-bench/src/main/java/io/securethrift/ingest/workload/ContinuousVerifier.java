package io.securethrift.ingest.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that every row pointed at by a continuous-ingest entry exists, as Accumulo's {@code ContinuousVerify} does
 * with map-reduce, but in memory.
 *
 * <p>Each valid entry contributes "row is defined" and, if it has a previous row, "previous row is referenced". Rows
 * are kept as primitive longs in two growable arrays, sorted once when the result is asked for and then merged, which
 * takes 16 bytes per entry and no per-row objects; a {@code HashMap<String, ...>} would need about ten times that.
 *
 * <p>Feed entries with {@link #add(Entry)} (for example straight from a scan) and call {@link #result()} once, or use
 * {@link #verify(Iterable)}. Not thread-safe.
 */
public final class ContinuousVerifier {

  /** How many undefined rows the result quotes. */
  public static final int MAX_EXAMPLES = 10;

  private final LongList defined = new LongList();
  private final LongList referenced = new LongList();
  private long corrupt;

  /** Verifies all the given entries. */
  public static VerifyResult verify(Iterable<Entry> entries) {
    ContinuousVerifier verifier = new ContinuousVerifier();
    for (Entry entry : entries) {
      verifier.add(entry);
    }
    return verifier.result();
  }

  /** Records one entry; an entry that fails {@link EntryFormat#isValid(Entry)} only counts as corrupt. */
  public void add(Entry entry) {
    long prevRow = EntryFormat.prevRowIfValid(entry);
    if (prevRow == EntryFormat.INVALID) {
      corrupt++;
      return;
    }
    defined.add(EntryFormat.parseRow(entry.row()));
    if (prevRow != EntryFormat.NO_PREVIOUS_ROW) {
      referenced.add(prevRow);
    }
  }

  /** Classifies every row seen so far. Sorts the recorded rows in place, so later calls cost less. */
  public VerifyResult result() {
    defined.sort();
    referenced.sort();
    long referencedRows = 0;
    long unreferencedRows = 0;
    long undefinedRows = 0;
    List<String> examples = new ArrayList<>();
    int definedCount = defined.size();
    int referencedCount = referenced.size();
    int d = 0;
    int r = 0;
    while (d < definedCount || r < referencedCount) {
      long row = Math.min(d < definedCount ? defined.get(d) : Long.MAX_VALUE,
          r < referencedCount ? referenced.get(r) : Long.MAX_VALUE);
      int definedStart = d;
      while (d < definedCount && defined.get(d) == row) {
        d++;
      }
      int referencedStart = r;
      while (r < referencedCount && referenced.get(r) == row) {
        r++;
      }
      boolean isDefined = d > definedStart;
      boolean isReferenced = r > referencedStart;
      if (isDefined && isReferenced) {
        referencedRows++;
      } else if (isDefined) {
        unreferencedRows++;
      } else {
        undefinedRows++;
        if (examples.size() < MAX_EXAMPLES) {
          examples.add(new String(EntryFormat.formatRow(row), StandardCharsets.US_ASCII));
        }
      }
    }
    return new VerifyResult(referencedRows, unreferencedRows, undefinedRows, corrupt, examples);
  }
}
