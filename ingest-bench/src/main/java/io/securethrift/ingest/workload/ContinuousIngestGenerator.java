package io.securethrift.ingest.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * Writes Accumulo's continuous-ingest linked lists into an {@link EntrySink}.
 *
 * <p>One cycle with flush interval F writes F list heads that point nowhere and flushes; then 24 levels in which node
 * {@code [d][i]} points at node {@code [d-1][i]}, flushing after each level; then rewrites head {@code i} (same row,
 * family and qualifier) to point at node {@code [24][i+1]} for {@code i < F-1} and flushes, joining the F short lists
 * into one long one. Because a flush separates every entry from the entry it points at, a store that lost nothing
 * acknowledged has every referenced row defined, which is what {@link ContinuousVerifier} checks. A complete cycle
 * writes {@code 26F - 1} entries and leaves exactly one row, node {@code [24][0]}, unreferenced.
 *
 * <p>Randomness comes from a seedable {@link SplittableRandom}, so a seeded run, its ingest id included, is
 * reproducible. Not thread-safe: one generator is one ingest client.
 */
public final class ContinuousIngestGenerator {

  /** Accumulo's default number of entries between flushes. */
  public static final int DEFAULT_FLUSH_INTERVAL = 1_000_000;

  /** Levels per cycle, heads included; fixed in Accumulo. */
  public static final int DEPTH = 25;

  /** Families and qualifiers are drawn below this bound, Accumulo's default {@code max.cf} and {@code max.cq}. */
  public static final int COLUMN_BOUND = 32767;

  /** Formatted columns, shared by all entries, so that generating an entry does not allocate them again. */
  private static final byte[][] COLUMNS = new byte[COLUMN_BOUND][];

  static {
    for (int i = 0; i < COLUMN_BOUND; i++) {
      COLUMNS[i] = EntryFormat.formatColumn(i);
    }
  }

  private final SplittableRandom random;
  private final long rowMin;
  private final long rowMax;
  private final int flushInterval;
  private final byte[] visibility;
  private final UUID ingestId;
  private final byte[] ingestIdBytes;
  private long count;

  private ContinuousIngestGenerator(Builder builder) {
    this.random = builder.seeded ? new SplittableRandom(builder.seed) : new SplittableRandom();
    this.rowMin = builder.rowMin;
    this.rowMax = builder.rowMax;
    this.flushInterval = builder.flushInterval;
    this.visibility = builder.visibility;
    this.ingestId = randomUuid(random);
    this.ingestIdBytes = ingestId.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** Starts a configuration with Accumulo's defaults: rows in [0, Long.MAX_VALUE), F = 1,000,000, no visibility. */
  public static Builder builder() {
    return new Builder();
  }

  /** The UUID written into every value, one per generator as Accumulo has one per ingest process. */
  public UUID ingestId() {
    return ingestId;
  }

  /** Entries written so far by all calls to {@link #generate}; the next entry carries this as its count. */
  public long entriesWritten() {
    return count;
  }

  /**
   * Writes cycles of linked lists until at least {@code entries} entries have been written, stopping at the first
   * flush that reaches the target, as Accumulo does; the last call to the sink is always a flush.
   *
   * @return the number of entries written by this call, which is {@code entries} rounded up to a flush boundary
   */
  public long generate(long entries, EntrySink sink) throws IOException {
    if (entries <= 0) {
      throw new IllegalArgumentException("entries must be positive: " + entries);
    }
    long target = count + entries;
    return generate(sink, () -> count >= target);
  }

  /**
   * Writes cycles of linked lists for {@code duration}, stopping at the first flush that ends after it: Accumulo's
   * time-based continuous ingest. At least one flush interval is written.
   *
   * @return the number of entries written by this call, which ends at a flush
   */
  public long generateFor(Duration duration, EntrySink sink) throws IOException {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("duration must be positive: " + duration);
    }
    long deadline = System.nanoTime() + duration.toNanos();
    return generate(sink, () -> System.nanoTime() - deadline >= 0);
  }

  private long generate(EntrySink sink, BooleanSupplier done) throws IOException {
    Objects.requireNonNull(sink, "sink");
    long start = count;
    long[] lastRows = new long[flushInterval];
    long[] headRows = new long[flushInterval];
    int[] headFamilies = new int[flushInterval];
    int[] headQualifiers = new int[flushInterval];
    while (true) {
      for (int i = 0; i < flushInterval; i++) {
        long row = nextRow();
        int family = random.nextInt(COLUMN_BOUND);
        int qualifier = random.nextInt(COLUMN_BOUND);
        lastRows[i] = row;
        headRows[i] = row;
        headFamilies[i] = family;
        headQualifiers[i] = qualifier;
        write(sink, row, family, qualifier, EntryFormat.NO_PREVIOUS_ROW);
      }
      if (flushReached(sink, done)) {
        return count - start;
      }
      for (int depth = 1; depth < DEPTH; depth++) {
        for (int i = 0; i < flushInterval; i++) {
          long row = nextRow();
          write(sink, row, random.nextInt(COLUMN_BOUND), random.nextInt(COLUMN_BOUND), lastRows[i]);
          lastRows[i] = row;
        }
        if (flushReached(sink, done)) {
          return count - start;
        }
      }
      for (int i = 0; i < flushInterval - 1; i++) {
        write(sink, headRows[i], headFamilies[i], headQualifiers[i], lastRows[i + 1]);
      }
      if (flushReached(sink, done)) {
        return count - start;
      }
    }
  }

  private long nextRow() {
    return random.nextLong(rowMin, rowMax);
  }

  private void write(EntrySink sink, long row, int family, int qualifier, long prevRow) throws IOException {
    sink.add(EntryFormat.encode(ingestIdBytes, count, EntryFormat.formatRow(row), COLUMNS[family],
        COLUMNS[qualifier], visibility, prevRow));
    count++;
  }

  private boolean flushReached(EntrySink sink, BooleanSupplier done) throws IOException {
    sink.flush();
    return done.getAsBoolean();
  }

  /** A version 4 UUID drawn from the generator's own source so that seeded runs repeat exactly. */
  private static UUID randomUuid(SplittableRandom random) {
    long most = (random.nextLong() & ~0xf000L) | 0x4000L;
    long least = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
    return new UUID(most, least);
  }

  /** Configuration of a {@link ContinuousIngestGenerator}. */
  public static final class Builder {
    private boolean seeded;
    private long seed;
    private long rowMin;
    private long rowMax = Long.MAX_VALUE;
    private int flushInterval = DEFAULT_FLUSH_INTERVAL;
    private byte[] visibility = new byte[0];

    private Builder() {
    }

    /** Makes the run reproducible; without a seed every generator differs. */
    public Builder seed(long value) {
      this.seeded = true;
      this.seed = value;
      return this;
    }

    /** Rows are drawn uniformly from [min, max); Accumulo's defaults are 0 and {@link Long#MAX_VALUE}. */
    public Builder rowRange(long min, long max) {
      if (min < 0 || max <= min) {
        throw new IllegalArgumentException("need 0 <= min < max, got [" + min + ", " + max + ")");
      }
      this.rowMin = min;
      this.rowMax = max;
      return this;
    }

    /** Entries per flush, F; also the number of lists each cycle builds side by side. */
    public Builder flushInterval(int entries) {
      if (entries < 1) {
        throw new IllegalArgumentException("flush interval must be positive: " + entries);
      }
      this.flushInterval = entries;
      return this;
    }

    /** The visibility expression written on every entry; empty (the default) for none. */
    public Builder visibility(byte[] expression) {
      this.visibility = expression.clone();
      return this;
    }

    /** Creates the generator; the builder may be reused. */
    public ContinuousIngestGenerator build() {
      return new ContinuousIngestGenerator(this);
    }
  }
}
