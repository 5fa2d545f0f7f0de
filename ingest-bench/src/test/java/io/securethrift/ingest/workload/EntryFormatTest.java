package io.securethrift.ingest.workload;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class EntryFormatTest {

  private static final byte[] INGEST_ID = bytes("01234567-89ab-4def-8123-456789abcdef");
  private static final byte[] NO_VISIBILITY = new byte[0];

  @Test
  void valueWithPreviousRowMatchesHandWrittenBytes() {
    Entry entry = EntryFormat.encode(INGEST_ID, 5, bytes("0123456789abcdef"), bytes("0001"), bytes("7ffe"),
        NO_VISIBILITY, 0x1a2bL);

    // CRC32 of "0123456789abcdef" + "0001" + "7ffe" + "" + the value up to the last ':' is 0x001ed196 (zlib);
    // the leading zeros check that the checksum is padded to 8 digits.
    String prefix = "01234567-89ab-4def-8123-456789abcdef:0000000000000005:0000000000001a2b:";
    assertEquals(prefix + "001ed196", text(entry.value()));
    assertEquals(0x001ed196L, crc("0123456789abcdef", "0001", "7ffe", "", prefix));
    assertEquals(79, entry.value().length);
    assertEquals(':', entry.value()[36]);
    assertEquals(':', entry.value()[53]);
    assertEquals("0000000000001a2b", text(entry.value()).substring(54, 70));
    assertTrue(EntryFormat.isValid(entry));
    assertEquals(0x1a2bL, EntryFormat.parsePrevRow(entry.value()));
  }

  @Test
  void headValueHasEmptyPreviousRowAndChecksumCoversVisibility() {
    Entry entry = EntryFormat.encode(INGEST_ID, 255, bytes("0000000000000000"), bytes("0000"), bytes("0000"),
        bytes("A&B"), EntryFormat.NO_PREVIOUS_ROW);

    String prefix = "01234567-89ab-4def-8123-456789abcdef:00000000000000ff::";
    assertEquals(prefix + "7a640826", text(entry.value()));
    assertEquals(0x7a640826L, crc("0000000000000000", "0000", "0000", "A&B", prefix));
    assertEquals(63, entry.value().length);
    assertEquals(':', entry.value()[54]);
    assertEquals(EntryFormat.NO_PREVIOUS_ROW, EntryFormat.parsePrevRow(entry.value()));
    assertTrue(EntryFormat.isValid(entry));
    Entry otherVisibility = new Entry(entry.row(), entry.family(), entry.qualifier(), bytes("A"), entry.value());
    assertFalse(EntryFormat.isValid(otherVisibility));
  }

  @Test
  void rowsAreSixteenLowercaseZeroPaddedHexDigits() {
    assertEquals("0000000000000000", text(EntryFormat.formatRow(0)));
    assertEquals("000000000000000a", text(EntryFormat.formatRow(10)));
    assertEquals("7ffffffffffffffe", text(EntryFormat.formatRow(Long.MAX_VALUE - 1)));
    assertEquals("7fffffffffffffff", text(EntryFormat.formatRow(Long.MAX_VALUE)));
    assertEquals(String.format("%016x", 0xdeadbeefL), text(EntryFormat.formatRow(0xdeadbeefL)));
    assertThrows(IllegalArgumentException.class, () -> EntryFormat.formatRow(-1));
  }

  @Test
  void rowsRoundTripAndRejectWhatAccumuloNeverWrites() {
    assertEquals(0, EntryFormat.parseRow(bytes("0000000000000000")));
    assertEquals(Long.MAX_VALUE - 1, EntryFormat.parseRow(bytes("7ffffffffffffffe")));
    assertEquals(0xabcdefL, EntryFormat.parseRow(EntryFormat.formatRow(0xabcdefL)));
    for (String bad : new String[] {"ABCDEF0123456789", "8000000000000000", "000000000000000", "000000000000000g"}) {
      assertThrows(IllegalArgumentException.class, () -> EntryFormat.parseRow(bytes(bad)), bad);
    }
  }

  @Test
  void countsRoundTripWithAndWithoutPreviousRow() {
    assertEquals(5, EntryFormat.parseCount(EntryFormat.encode(INGEST_ID, 5, EntryFormat.formatRow(1),
        EntryFormat.formatColumn(0), EntryFormat.formatColumn(0), NO_VISIBILITY, 0x1a2bL).value()));
    assertEquals(Long.MAX_VALUE, EntryFormat.parseCount(EntryFormat.encode(INGEST_ID, Long.MAX_VALUE,
        EntryFormat.formatRow(1), EntryFormat.formatColumn(0), EntryFormat.formatColumn(0), NO_VISIBILITY,
        EntryFormat.NO_PREVIOUS_ROW).value()));
    assertThrows(IllegalArgumentException.class, () -> EntryFormat.parseCount(bytes("not a value")));
  }

  @Test
  void columnsAreFourLowercaseZeroPaddedHexDigits() {
    assertEquals("0000", text(EntryFormat.formatColumn(0)));
    assertEquals("000f", text(EntryFormat.formatColumn(15)));
    assertEquals("7ffe", text(EntryFormat.formatColumn(32766)));
    assertEquals("ffff", text(EntryFormat.formatColumn(0xffff)));
    assertThrows(IllegalArgumentException.class, () -> EntryFormat.formatColumn(0x10000));
  }

  @Test
  void anyFlippedByteMakesTheEntryInvalid() {
    Entry entry = EntryFormat.encode(INGEST_ID, 7, EntryFormat.formatRow(42), EntryFormat.formatColumn(3),
        EntryFormat.formatColumn(4), NO_VISIBILITY, 41);
    for (int i = 0; i < entry.value().length; i++) {
      byte[] value = entry.value().clone();
      value[i] ^= 0x01;
      assertFalse(EntryFormat.isValid(new Entry(entry.row(), entry.family(), entry.qualifier(),
          entry.visibility(), value)), "flipped value byte " + i);
    }
    byte[] row = entry.row().clone();
    row[15] ^= 0x01;
    assertFalse(EntryFormat.isValid(new Entry(row, entry.family(), entry.qualifier(), entry.visibility(),
        entry.value())));
  }

  @Test
  void malformedValuesAreInvalidAndHaveNoPreviousRow() {
    Entry entry = EntryFormat.encode(INGEST_ID, 7, EntryFormat.formatRow(42), EntryFormat.formatColumn(3),
        EntryFormat.formatColumn(4), NO_VISIBILITY, 41);
    byte[] truncated = Arrays.copyOf(entry.value(), entry.value().length - 1);
    assertFalse(EntryFormat.isValid(new Entry(entry.row(), entry.family(), entry.qualifier(),
        entry.visibility(), truncated)));
    assertThrows(IllegalArgumentException.class, () -> EntryFormat.parsePrevRow(truncated));
    assertThrows(IllegalArgumentException.class, () -> EntryFormat.encode(bytes("short"), 0,
        entry.row(), entry.family(), entry.qualifier(), NO_VISIBILITY, EntryFormat.NO_PREVIOUS_ROW));
  }

  private static long crc(String... parts) {
    CRC32 crc = new CRC32();
    for (String part : parts) {
      crc.update(bytes(part));
    }
    return crc.getValue();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(US_ASCII);
  }

  private static String text(byte[] b) {
    return new String(b, US_ASCII);
  }
}
