package io.securethrift.sasl;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Decryption for the Kerberos encryption types of RFC 8009, {@code aes128-cts-hmac-sha256-128} (19) and
 * {@code aes256-cts-hmac-sha384-192} (20), which the JDK accepts by default since Java 11 and MIT and FreeIPA KDCs
 * issue, but Apache Kerby's crypto does not have. Built from the JDK's own primitives only: HMAC-SHA2 for the key
 * derivation (NIST SP 800-108 counter mode, one block) and the checksum, and SunJCE's {@code AES/CTS/NoPadding}, the
 * CBC ciphertext stealing Kerberos uses (RFC 3962: the last two blocks always swapped), which the JDK's own Kerberos
 * code uses for these types. The checksum is verified, in constant time, before anything is decrypted.
 */
final class AesSha2Decryption {
  private static final int BLOCK = 16;
  private static final byte ENCRYPTION_KEY = (byte) 0xAA;
  private static final byte INTEGRITY_KEY = 0x55;

  private final String mac;
  private final int keyBytes;
  private final int checksumBytes;

  private AesSha2Decryption(String mac, int keyBytes, int checksumBytes) {
    this.mac = mac;
    this.keyBytes = keyBytes;
    this.checksumBytes = checksumBytes;
  }

  /** The decryption of encryption type {@code etype}, if it is one of RFC 8009's. */
  static Optional<AesSha2Decryption> of(int etype) {
    switch (etype) {
      case 19:
        return Optional.of(new AesSha2Decryption("HmacSHA256", 16, 16));
      case 20:
        return Optional.of(new AesSha2Decryption("HmacSHA384", 32, 24));
      default:
        return Optional.empty();
    }
  }

  /**
   * The plaintext of {@code sealed} (confounder, ciphertext and checksum, as on the wire), sealed with {@code baseKey}
   * for key usage {@code usage}, with the initial cipher state (zero).
   *
   * @throws GeneralSecurityException if the key has the wrong length, the data is too short, or the checksum does not
   *     match (a wrong key, or data changed on the way)
   */
  byte[] decrypt(byte[] baseKey, int usage, byte[] sealed) throws GeneralSecurityException {
    if (baseKey.length != keyBytes) {
      throw new GeneralSecurityException("a " + mac + " Kerberos key is " + keyBytes + " bytes, not "
          + baseKey.length);
    }
    if (sealed.length < BLOCK + checksumBytes) {
      throw new GeneralSecurityException("encrypted data of " + sealed.length + " bytes is shorter than a"
          + " confounder and a checksum (" + (BLOCK + checksumBytes) + ")");
    }
    int cipherLength = sealed.length - checksumBytes;
    byte[] ke = derive(baseKey, usage, ENCRYPTION_KEY, keyBytes * 8);
    byte[] ki = derive(baseKey, usage, INTEGRITY_KEY, checksumBytes * 8);
    Mac checksum = Mac.getInstance(mac);
    checksum.init(new SecretKeySpec(ki, mac));
    checksum.update(new byte[BLOCK]);
    checksum.update(sealed, 0, cipherLength);
    byte[] expected = Arrays.copyOf(checksum.doFinal(), checksumBytes);
    if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(sealed, cipherLength, sealed.length))) {
      throw new GeneralSecurityException("the checksum of the encrypted data does not match: the key is not the one"
          + " it was sealed with, or the data changed");
    }
    Cipher aes = Cipher.getInstance("AES/CTS/NoPadding");
    aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(ke, "AES"), new IvParameterSpec(new byte[BLOCK]));
    byte[] plain = aes.doFinal(sealed, 0, cipherLength);
    return Arrays.copyOfRange(plain, BLOCK, plain.length);
  }

  /** RFC 8009's KDF-HMAC-SHA2(base, usage | kind, bits): one HMAC block over {1, label, 0, bits}, truncated. */
  private byte[] derive(byte[] baseKey, int usage, byte kind, int bits) throws GeneralSecurityException {
    Mac prf = Mac.getInstance(mac);
    prf.init(new SecretKeySpec(baseKey, mac));
    byte[] input = ByteBuffer.allocate(4 + 5 + 1 + 4).putInt(1).putInt(usage).put(kind).put((byte) 0).putInt(bits)
        .array();
    return Arrays.copyOf(prf.doFinal(input), bits / 8);
  }
}
