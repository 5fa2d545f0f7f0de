package io.securethrift.ingest.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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

    private long[] defined = new long[1024];
    private int definedCount;
    private long[] referenced = new long[1024];
    private int referencedCount;
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
        if (!EntryFormat.isValid(entry)) {
            corrupt++;
            return;
        }
        if (definedCount == defined.length) {
            defined = grow(defined);
        }
        defined[definedCount++] = EntryFormat.parseRow(entry.row());
        long prevRow = EntryFormat.parsePrevRow(entry.value());
        if (prevRow != EntryFormat.NO_PREVIOUS_ROW) {
            if (referencedCount == referenced.length) {
                referenced = grow(referenced);
            }
            referenced[referencedCount++] = prevRow;
        }
    }

    /** Classifies every row seen so far. Sorts the recorded rows in place, so later calls cost less. */
    public VerifyResult result() {
        Arrays.sort(defined, 0, definedCount);
        Arrays.sort(referenced, 0, referencedCount);
        long referencedRows = 0;
        long unreferencedRows = 0;
        long undefinedRows = 0;
        List<String> examples = new ArrayList<>();
        int d = 0;
        int r = 0;
        while (d < definedCount || r < referencedCount) {
            long row = Math.min(d < definedCount ? defined[d] : Long.MAX_VALUE,
                    r < referencedCount ? referenced[r] : Long.MAX_VALUE);
            int definedStart = d;
            while (d < definedCount && defined[d] == row) {
                d++;
            }
            int referencedStart = r;
            while (r < referencedCount && referenced[r] == row) {
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

    private static long[] grow(long[] array) {
        if (array.length >= Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("too many entries to verify in memory");
        }
        return Arrays.copyOf(array, (int) Math.min(Integer.MAX_VALUE - 8L, array.length * 2L));
    }
}
