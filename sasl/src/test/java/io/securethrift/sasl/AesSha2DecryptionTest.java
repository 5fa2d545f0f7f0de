package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import org.apache.kerby.kerberos.kerb.KrbCodec;
import org.apache.kerby.kerberos.kerb.type.base.EncryptedData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AesSha2Decryption} opens what the JDK's own RFC 8009 implementation seals, at every length where ciphertext
 * stealing differs (nothing after the confounder, less than a block, exactly one, one and a bit, several), and refuses
 * a changed byte, a wrong key, a key of the wrong size and data shorter than a confounder and a checksum.
 */
class AesSha2DecryptionTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** KDC_REP_TICKET, the usage a service ticket is sealed for. */
  private static final int USAGE = 2;

  @ParameterizedTest(name = "enctype {0}")
  @ValueSource(ints = {19, 20})
  void opensWhatTheJdkSealsAtEveryLength(int etype) throws Exception {
    AesSha2Decryption decryption = AesSha2Decryption.of(etype).orElseThrow();
    byte[] key = key(etype);
    for (int length : new int[] {0, 5, 15, 16, 17, 31, 32, 33, 100, 1000}) {
      byte[] plain = new byte[length];
      RANDOM.nextBytes(plain);
      assertArrayEquals(plain, decryption.decrypt(key, USAGE, cipher(key, etype, plain)), "length " + length);
    }
  }

  @ParameterizedTest(name = "enctype {0}")
  @ValueSource(ints = {19, 20})
  void aChangedByteOrAnotherKeyIsRefusedBeforeDecrypting(int etype) throws Exception {
    AesSha2Decryption decryption = AesSha2Decryption.of(etype).orElseThrow();
    byte[] key = key(etype);
    byte[] sealed = cipher(key, etype, new byte[40]);
    for (int i : new int[] {0, 20, sealed.length - 1}) {
      byte[] changed = sealed.clone();
      changed[i] ^= 1;
      GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
          () -> decryption.decrypt(key, USAGE, changed));
      assertTrue(e.getMessage().startsWith("the checksum of the encrypted data does not match"), e.getMessage());
    }
    assertThrows(GeneralSecurityException.class, () -> decryption.decrypt(key(etype), USAGE, sealed));
    assertThrows(GeneralSecurityException.class, () -> decryption.decrypt(key, USAGE + 1, sealed));
  }

  @ParameterizedTest(name = "enctype {0}")
  @ValueSource(ints = {19, 20})
  void wrongSizesAreRefusedWithTheReason(int etype) {
    AesSha2Decryption decryption = AesSha2Decryption.of(etype).orElseThrow();
    byte[] key = key(etype);
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> decryption.decrypt(Arrays.copyOf(key, key.length + 1), USAGE, new byte[64]));
    assertTrue(e.getMessage().contains("Kerberos key is " + key.length + " bytes, not " + (key.length + 1)),
        e.getMessage());
    int shortest = etype == 19 ? 32 : 40;
    e = assertThrows(GeneralSecurityException.class, () -> decryption.decrypt(key, USAGE, new byte[shortest - 1]));
    assertEquals("encrypted data of " + (shortest - 1) + " bytes is shorter than a confounder and a checksum ("
        + shortest + ")", e.getMessage());
  }

  @ParameterizedTest(name = "enctype {0}")
  @ValueSource(ints = {17, 18, 23, 0, 21})
  void otherTypesAreNotItsOwn(int etype) {
    assertEquals(Optional.empty(), AesSha2Decryption.of(etype));
  }

  static byte[] key(int etype) {
    byte[] key = new byte[etype == 19 ? 16 : 32];
    RANDOM.nextBytes(key);
    return key;
  }

  private static byte[] cipher(byte[] key, int etype, byte[] plain) throws Exception {
    return KrbCodec.decode(JdkKerberosCrypto.seal(key, etype, 1, plain, USAGE), EncryptedData.class).getCipher();
  }
}
