package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sealed message larger than one record is a run of records cut at fixed points: it opens whole, in place or
 * elsewhere, and a message cut after any record, or with two records swapped, is refused.
 */
class GcmRecordsTest {
  private static final byte[] SECRET = new byte[32];
  private static final int FULL = GcmRecords.RECORD + GcmRecords.TAG;

  @ParameterizedTest
  @ValueSource(ints = {0, 1, GcmRecords.RECORD - 1, GcmRecords.RECORD, GcmRecords.RECORD + 1, 3 * GcmRecords.RECORD,
      1 << 20})
  void aMessageOfAnyLengthRoundTripsElsewhereAndInPlace(int length) throws Exception {
    byte[] message = new byte[length];
    new Random(length).nextBytes(message);
    GcmRecords sealer = GcmRecords.sealer(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    GcmRecords opener = GcmRecords.opener(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    byte[] sealed = seal(sealer, message);
    int records = Math.max(1, (length + GcmRecords.RECORD - 1) / GcmRecords.RECORD);
    assertEquals(length + records * GcmRecords.TAG, sealed.length);
    assertEquals(length, GcmRecords.plainLength(sealed.length));
    byte[] elsewhere = new byte[length + 10];
    assertEquals(length, opener.open(sealed, sealed.length, elsewhere, 10));
    assertArrayEquals(message, Arrays.copyOfRange(elsewhere, 10, 10 + length));
    byte[] again = seal(sealer, message);
    assertEquals(length, opener.open(again, again.length, again, 0));
    assertArrayEquals(message, Arrays.copyOf(again, length));
  }

  @Test
  void aMessageCutAfterAnyRecordIsRefused() throws Exception {
    byte[] sealed = seal(GcmRecords.sealer(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES),
        new byte[3 * GcmRecords.RECORD + 100]);
    for (int records = 1; records <= 3; records++) {
      GcmRecords opener = GcmRecords.opener(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
      int cut = records * FULL;
      assertThrows(AEADBadTagException.class, () -> opener.open(sealed, cut, new byte[cut], 0),
          "a message cut after " + records + " records");
    }
  }

  @Test
  void swappedRecordsAreRefused() throws Exception {
    byte[] sealed = seal(GcmRecords.sealer(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES),
        new byte[2 * GcmRecords.RECORD]);
    byte[] swapped = new byte[sealed.length];
    System.arraycopy(sealed, FULL, swapped, 0, FULL);
    System.arraycopy(sealed, 0, swapped, FULL, FULL);
    GcmRecords opener = GcmRecords.opener(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    assertThrows(AEADBadTagException.class, () -> opener.open(swapped, swapped.length, new byte[swapped.length], 0));
  }

  @Test
  void aLengthWhoseLastRecordIsShorterThanATagIsNoSealedMessage() throws Exception {
    assertEquals(-1, GcmRecords.plainLength(0));
    assertEquals(-1, GcmRecords.plainLength(GcmRecords.TAG - 1));
    assertEquals(-1, GcmRecords.plainLength(FULL + GcmRecords.TAG - 1));
    assertEquals(0, GcmRecords.plainLength(GcmRecords.TAG));
    GcmRecords opener = GcmRecords.opener(null, 32, SECRET, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    AEADBadTagException e = assertThrows(AEADBadTagException.class,
        () -> opener.open(new byte[FULL + 5], FULL + 5, new byte[FULL + 5], 0));
    assertTrue(e.getMessage().contains("shorter than its tag"), e.getMessage());
  }

  @Test
  void plainCapacityIsTheLargestMessageThatFitsABudget() {
    for (int budget : new int[] {0, 5, GcmRecords.TAG, FULL - 1, FULL, FULL + GcmRecords.TAG, FULL + 17, 1 << 20,
        16 * 1024 * 1024}) {
      int capacity = GcmRecords.plainCapacity(budget);
      assertTrue(capacity == 0 || GcmRecords.sealedLength(capacity) <= budget, "budget " + budget);
      assertTrue(GcmRecords.sealedLength(capacity + 1) > budget, "budget " + budget);
    }
    assertThrows(IllegalArgumentException.class, () -> GcmRecords.sealedLength(Integer.MAX_VALUE - 100));
  }

  private static byte[] seal(GcmRecords sealer, byte[] plain) throws Exception {
    byte[] out = new byte[GcmRecords.sealedLength(plain.length)];
    assertEquals(out.length, sealer.seal(plain, 0, plain.length, out, 0));
    return out;
  }
}
