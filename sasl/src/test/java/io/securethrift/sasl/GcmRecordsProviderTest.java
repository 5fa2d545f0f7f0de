package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.Provider;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.AEADBadTagException;
import org.conscrypt.Conscrypt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * AES-GCM records from the JDK's provider and from each native one (Conscrypt's, which goes through direct buffers,
 * and the Amazon Corretto Crypto Provider's, which is handed arrays) are the same bytes on the wire, and each side
 * opens the other's, whichever array layout the transport hands over: a record sealed from the middle of a large
 * message, opened into the middle of a large read buffer.
 */
class GcmRecordsProviderTest {
  private static final Provider CONSCRYPT = Conscrypt.newProvider();
  private static final byte[] SECRET = new byte[32];
  /** Ratchets after three records, so the comparison crosses a rekey. */
  private static final long REKEY_RECORDS = 3;

  @Test
  void theProviderIsTheOneConfigured() {
    assertEquals(CONSCRYPT, GcmRecords.sealer(CONSCRYPT, 32, SECRET, REKEY_RECORDS, 1L << 32).provider());
    assertEquals("SunJCE", GcmRecords.opener(null, 32, SECRET, REKEY_RECORDS, 1L << 32).provider().getName());
  }

  static Stream<Provider> nativeProviders() {
    return Stream.of(CONSCRYPT, AmazonCorrettoCryptoProvider.INSTANCE);
  }

  @ParameterizedTest
  @MethodSource("nativeProviders")
  void theJdkAndANativeProviderSealTheSameRecordsAndOpenEachOthers(Provider other) throws Exception {
    byte[] message = new byte[1 << 20];
    new Random(14).nextBytes(message);
    GcmRecords jdkSealer = GcmRecords.sealer(null, 32, SECRET, REKEY_RECORDS, 1L << 32);
    GcmRecords otherSealer = GcmRecords.sealer(other, 32, SECRET, REKEY_RECORDS, 1L << 32);
    GcmRecords jdkOpener = GcmRecords.opener(null, 32, SECRET, REKEY_RECORDS, 1L << 32);
    GcmRecords otherOpener = GcmRecords.opener(other, 32, SECRET, REKEY_RECORDS, 1L << 32);
    assertEquals(other, otherSealer.provider());
    byte[] jdkRead = new byte[message.length];
    byte[] otherRead = new byte[message.length];
    int offset = 0;
    for (int length : new int[] {1, GcmRecords.RECORD, 300, GcmRecords.RECORD, 0, 70_000, 5}) {
      byte[] fromJdk = seal(jdkSealer, message, offset, length);
      byte[] fromOther = seal(otherSealer, message, offset, length);
      assertArrayEquals(fromJdk, fromOther, "record of " + length + " plain bytes");
      assertEquals(length, otherOpener.open(fromJdk, fromJdk.length, otherRead, offset));
      assertEquals(length, jdkOpener.open(fromOther, fromOther.length, jdkRead, offset));
      offset += length;
    }
    // Eight records (70,000 bytes take two) under a ratchet every three: new keys for the fourth and the seventh.
    assertEquals(2, jdkSealer.epoch());
    assertEquals(2, otherOpener.epoch());
    assertArrayEquals(Arrays.copyOf(message, offset), Arrays.copyOf(jdkRead, offset));
    assertArrayEquals(Arrays.copyOf(message, offset), Arrays.copyOf(otherRead, offset));
  }

  @ParameterizedTest
  @MethodSource("nativeProviders")
  void aNativeProviderRefusesAnAlteredRecordFromTheJdk(Provider other) throws Exception {
    byte[] plain = new byte[1000];
    byte[] record = seal(GcmRecords.sealer(null, 16, SECRET, REKEY_RECORDS, 1L << 32), plain, 0, plain.length);
    record[500] ^= 1;
    GcmRecords opener = GcmRecords.opener(other, 16, SECRET, REKEY_RECORDS, 1L << 32);
    assertThrows(AEADBadTagException.class, () -> opener.open(record, record.length, new byte[4096], 100));
  }

  /** A record sealed from {@code length} bytes at {@code offset} of a larger array. */
  private static byte[] seal(GcmRecords sealer, byte[] message, int offset, int length) throws Exception {
    byte[] record = new byte[GcmRecords.sealedLength(length)];
    assertEquals(record.length, sealer.seal(message, offset, length, record, 0));
    return record;
  }
}
