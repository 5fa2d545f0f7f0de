package io.securethrift.ingest.workload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One key/value written by continuous ingest: row, column family, column qualifier, column visibility and value, all
 * as raw bytes (no timestamp, as Accumulo's continuous ingest never sets one).
 *
 * <p>The arrays are held and returned without copying because millions of entries pass through the generator and the
 * batch writer every second and a defensive copy would double the allocation rate. The class is therefore immutable
 * only by contract: neither the code that builds an entry nor the code that reads one may modify the arrays. The
 * generator shares one array per column value between entries.
 */
public final class Entry {

  /** Rough per-entry heap cost beyond the bytes themselves (object and array headers); used for memory limits. */
  private static final int OVERHEAD_BYTES = 64;

  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final byte[] visibility;
  private final byte[] value;

  /** Wraps the given arrays without copying them; the caller hands them over and must not modify them later. */
  public Entry(byte[] row, byte[] family, byte[] qualifier, byte[] visibility, byte[] value) {
    this.row = Objects.requireNonNull(row, "row");
    this.family = Objects.requireNonNull(family, "family");
    this.qualifier = Objects.requireNonNull(qualifier, "qualifier");
    this.visibility = Objects.requireNonNull(visibility, "visibility");
    this.value = Objects.requireNonNull(value, "value");
  }

  /** The row; the array itself, not a copy, so do not modify it. */
  public byte[] row() {
    return row;
  }

  /** The column family; the array itself, not a copy, so do not modify it. */
  public byte[] family() {
    return family;
  }

  /** The column qualifier; the array itself, not a copy, so do not modify it. */
  public byte[] qualifier() {
    return qualifier;
  }

  /** The column visibility expression, empty when unrestricted; the array itself, not a copy. */
  public byte[] visibility() {
    return visibility;
  }

  /** The value; the array itself, not a copy, so do not modify it. */
  public byte[] value() {
    return value;
  }

  /** Bytes of key (row, family, qualifier, visibility) and value: what a benchmark counts as data moved. */
  public int keyValueBytes() {
    return row.length + family.length + qualifier.length + visibility.length + value.length;
  }

  /** Approximate heap bytes this entry pins while buffered, so the batch writer can bound its memory. */
  long estimatedBytes() {
    return (long) keyValueBytes() + OVERHEAD_BYTES;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Entry)) {
      return false;
    }
    Entry other = (Entry) o;
    return Arrays.equals(row, other.row) && Arrays.equals(family, other.family)
        && Arrays.equals(qualifier, other.qualifier) && Arrays.equals(visibility, other.visibility)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(row);
    h = 31 * h + Arrays.hashCode(family);
    h = 31 * h + Arrays.hashCode(qualifier);
    h = 31 * h + Arrays.hashCode(visibility);
    return 31 * h + Arrays.hashCode(value);
  }

  /** Shows the entry the way Accumulo's shell prints a key and value, for test failures and logs. */
  @Override
  public String toString() {
    return text(row) + " " + text(family) + ":" + text(qualifier) + " [" + text(visibility) + "] " + text(value);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
