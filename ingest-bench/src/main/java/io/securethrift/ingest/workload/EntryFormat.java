package io.securethrift.ingest.workload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The byte layout of continuous-ingest entries, identical to Accumulo's {@code ContinuousIngest} so that tables
 * written by either tool can be checked by the other.
 *
 * <ul>
 *   <li>row: 16 lowercase zero-padded hex digits of a non-negative long;</li>
 *   <li>family and qualifier: 4 lowercase zero-padded hex digits of an int below 32767;</li>
 *   <li>value: {@code uuid(36):count(16 hex):prevRow(16 hex, or empty):crc32(8 hex)}, so ':' sits at offsets 36, 53
 *       and 54 or 70, and the previous row, when present, at [54, 70);</li>
 *   <li>the CRC32 covers row, family, qualifier and visibility bytes, then the value up to and including the ':'
 *       before the checksum.</li>
 * </ul>
 *
 * Accumulo can also write values without a checksum (a trailing ':'); this class always writes one and treats a value
 * without one as invalid, because the benchmark relies on it to detect corruption.
 */
public final class EntryFormat {

  /** Returned by {@link #parsePrevRow(byte[])} for the head of a list, which points nowhere. */
  public static final long NO_PREVIOUS_ROW = -1;

  /** Length in bytes of a formatted row. */
  public static final int ROW_LENGTH = 16;

  /** Length in bytes of a formatted family or qualifier. */
  public static final int COLUMN_LENGTH = 4;

  /** Length in bytes of the ingest id, a UUID in its canonical text form. */
  public static final int INGEST_ID_LENGTH = 36;

  /** Returned by {@link #prevRowIfValid(Entry)} for an entry that fails validation. */
  static final long INVALID = -2;

  private static final int COUNT_LENGTH = 16;
  private static final int CHECKSUM_LENGTH = 8;
  private static final int PREV_ROW_OFFSET = INGEST_ID_LENGTH + 1 + COUNT_LENGTH + 1;
  private static final int VALUE_LENGTH_WITHOUT_PREV = PREV_ROW_OFFSET + 1 + CHECKSUM_LENGTH;
  private static final int VALUE_LENGTH_WITH_PREV = VALUE_LENGTH_WITHOUT_PREV + ROW_LENGTH;

  private static final byte SEPARATOR = ':';
  private static final byte[] HEX_DIGITS = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };
  /** Digit value of each byte, or -1; only lowercase digits count, as that is all Accumulo writes. */
  private static final byte[] HEX_VALUES = new byte[256];

  static {
    Arrays.fill(HEX_VALUES, (byte) -1);
    for (int i = 0; i < HEX_DIGITS.length; i++) {
      HEX_VALUES[HEX_DIGITS[i]] = (byte) i;
    }
  }

  private EntryFormat() {
  }

  /** Formats a row id as 16 lowercase hex digits; rejects negative ids, which Accumulo cannot represent either. */
  public static byte[] formatRow(long row) {
    if (row < 0) {
      throw new IllegalArgumentException("row must not be negative: " + row);
    }
    byte[] out = new byte[ROW_LENGTH];
    writeHex(out, 0, row, ROW_LENGTH);
    return out;
  }

  /** Formats a family or qualifier number as 4 lowercase hex digits. */
  public static byte[] formatColumn(int column) {
    if (column < 0 || column > 0xffff) {
      throw new IllegalArgumentException("column must be in [0, 65535]: " + column);
    }
    byte[] out = new byte[COLUMN_LENGTH];
    writeHex(out, 0, column, COLUMN_LENGTH);
    return out;
  }

  /** Parses a row written by {@link #formatRow(long)}; throws {@link IllegalArgumentException} on anything else. */
  public static long parseRow(byte[] row) {
    long parsed = row.length == ROW_LENGTH ? readHex(row, 0, ROW_LENGTH) : -1;
    if (parsed < 0) {
      throw new IllegalArgumentException("not a continuous-ingest row: " + new String(row, StandardCharsets.UTF_8));
    }
    return parsed;
  }

  /**
   * Builds one entry with its checksum.
   *
   * @param ingestId the 36-byte UUID text of the ingest process
   * @param count how many entries this ingest process wrote before this one
   * @param row a formatted row, see {@link #formatRow(long)}
   * @param family a formatted family, see {@link #formatColumn(int)}
   * @param qualifier a formatted qualifier, see {@link #formatColumn(int)}
   * @param visibility the visibility expression, empty for none
   * @param prevRow the row this entry points at, or {@link #NO_PREVIOUS_ROW}
   */
  public static Entry encode(byte[] ingestId, long count, byte[] row, byte[] family, byte[] qualifier,
      byte[] visibility, long prevRow) {
    if (ingestId.length != INGEST_ID_LENGTH) {
      throw new IllegalArgumentException("ingest id must be " + INGEST_ID_LENGTH + " bytes");
    }
    if (count < 0 || prevRow < NO_PREVIOUS_ROW) {
      throw new IllegalArgumentException("count and previous row must not be negative");
    }
    boolean hasPrev = prevRow != NO_PREVIOUS_ROW;
    byte[] value = new byte[hasPrev ? VALUE_LENGTH_WITH_PREV : VALUE_LENGTH_WITHOUT_PREV];
    System.arraycopy(ingestId, 0, value, 0, INGEST_ID_LENGTH);
    value[INGEST_ID_LENGTH] = SEPARATOR;
    writeHex(value, INGEST_ID_LENGTH + 1, count, COUNT_LENGTH);
    value[PREV_ROW_OFFSET - 1] = SEPARATOR;
    int index = PREV_ROW_OFFSET;
    if (hasPrev) {
      writeHex(value, index, prevRow, ROW_LENGTH);
      index += ROW_LENGTH;
    }
    value[index++] = SEPARATOR;
    writeHex(value, index, checksum(row, family, qualifier, visibility, value, index), CHECKSUM_LENGTH);
    return new Entry(row, family, qualifier, visibility, value);
  }

  /**
   * Whether the entry has a well-formed row and value and its stored CRC32 matches its contents. Anything else means
   * the entry was damaged between writer and reader.
   */
  public static boolean isValid(Entry entry) {
    return prevRowIfValid(entry) != INVALID;
  }

  /**
   * The row a value points at, or {@link #NO_PREVIOUS_ROW}; throws {@link IllegalArgumentException} if the value
   * does not have the continuous-ingest layout. Does not check the CRC, see {@link #isValid(Entry)}.
   */
  public static long parsePrevRow(byte[] value) {
    long prevRow = prevRowIfWellFormed(value);
    if (prevRow == INVALID) {
      throw new IllegalArgumentException("not a continuous-ingest value: " + new String(value,
          StandardCharsets.UTF_8));
    }
    return prevRow;
  }

  /**
   * The count a value carries: how many entries its ingest process wrote before this one, so a later write of the same
   * key by the same process carries a larger count. Throws {@link IllegalArgumentException} if the value does not have
   * the continuous-ingest layout; does not check the CRC, see {@link #isValid(Entry)}.
   */
  public static long parseCount(byte[] value) {
    long count = prevRowIfWellFormed(value) == INVALID ? -1 : readHex(value, INGEST_ID_LENGTH + 1, COUNT_LENGTH);
    if (count < 0) {
      throw new IllegalArgumentException("not a continuous-ingest value: " + new String(value,
          StandardCharsets.UTF_8));
    }
    return count;
  }

  /**
   * Validates the entry as {@link #isValid(Entry)} does and returns its previous row, {@link #NO_PREVIOUS_ROW} or
   * {@link #INVALID}, so the verifier parses each value once.
   */
  static long prevRowIfValid(Entry entry) {
    byte[] row = entry.row();
    byte[] value = entry.value();
    long prevRow = prevRowIfWellFormed(value);
    if (prevRow == INVALID || row.length != ROW_LENGTH || readHex(row, 0, ROW_LENGTH) < 0) {
      return INVALID;
    }
    int checksumOffset = value.length - CHECKSUM_LENGTH;
    long stored = readHex(value, checksumOffset, CHECKSUM_LENGTH);
    long actual = checksum(row, entry.family(), entry.qualifier(), entry.visibility(), value, checksumOffset);
    return stored == actual ? prevRow : INVALID;
  }

  /** The previous row, {@link #NO_PREVIOUS_ROW}, or {@link #INVALID} if the value's layout is wrong. */
  private static long prevRowIfWellFormed(byte[] value) {
    boolean withPrev = value.length == VALUE_LENGTH_WITH_PREV;
    if (!withPrev && value.length != VALUE_LENGTH_WITHOUT_PREV) {
      return INVALID;
    }
    int lastSeparator = value.length - CHECKSUM_LENGTH - 1;
    boolean wellFormed = value[INGEST_ID_LENGTH] == SEPARATOR
        && value[PREV_ROW_OFFSET - 1] == SEPARATOR
        && value[lastSeparator] == SEPARATOR
        && readHex(value, INGEST_ID_LENGTH + 1, COUNT_LENGTH) >= 0
        && readHex(value, lastSeparator + 1, CHECKSUM_LENGTH) >= 0;
    if (!wellFormed) {
      return INVALID;
    }
    if (!withPrev) {
      return NO_PREVIOUS_ROW;
    }
    long prevRow = readHex(value, PREV_ROW_OFFSET, ROW_LENGTH);
    return prevRow < 0 ? INVALID : prevRow;
  }

  private static long checksum(byte[] row, byte[] family, byte[] qualifier, byte[] visibility, byte[] value,
      int valueLength) {
    CRC32 crc = new CRC32();
    crc.update(row);
    crc.update(family);
    crc.update(qualifier);
    crc.update(visibility);
    crc.update(value, 0, valueLength);
    return crc.getValue();
  }

  /** Writes the low {@code digits} nibbles of {@code number}, most significant first, zero padded. */
  private static void writeHex(byte[] out, int offset, long number, int digits) {
    long remaining = number;
    for (int i = offset + digits - 1; i >= offset; i--) {
      out[i] = HEX_DIGITS[(int) remaining & 0xf];
      remaining >>>= 4;
    }
  }

  /**
   * Reads {@code digits} lowercase hex digits; returns -1 for a non-digit or a 16-digit number above
   * {@link Long#MAX_VALUE}, neither of which a continuous-ingest writer produces.
   */
  private static long readHex(byte[] in, int offset, int digits) {
    long number = 0;
    int invalid = 0;
    for (int i = offset; i < offset + digits; i++) {
      int digit = HEX_VALUES[in[i] & 0xff];
      invalid |= digit;
      number = (number << 4) | (digit & 0xf);
    }
    return invalid < 0 || number < 0 ? -1 : number;
  }
}
