package io.securethrift.sasl;

import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GCM records for one direction of one connection: the sealing side or the opening side of a traffic secret from
 * {@link PrivacyExchange}. The nonce is the direction's 12-byte base XORed with the record's sequence number, so no
 * nonce repeats under a key and a record replayed, reordered or dropped fails authentication. After
 * {@link #REKEY_RECORDS} records or {@link #REKEY_BYTES} plain bytes, whichever comes first, both ends ratchet the
 * secret forward (HKDF) at the same record and restart the sequence. Not thread-safe: one direction is one stream.
 */
final class GcmRecords {
  /** Bytes the tag adds to every record. */
  static final int TAG = 16;
  /** Records per key before the ratchet: far below the 2^32 invocations NIST SP 800-38D allows one GCM key. */
  static final long REKEY_RECORDS = 1L << 20;
  /** Plain bytes per key before the ratchet (4 GiB), well inside AES-GCM's confidentiality bound for one key. */
  static final long REKEY_BYTES = 1L << 32;
  private static final int NONCE = 12;

  private final int mode;
  private final int keyLength;
  private final long rekeyRecords;
  private final long rekeyBytes;
  private final Cipher cipher;
  private final byte[] nonce = new byte[NONCE];
  private byte[] secret;
  private SecretKeySpec key;
  private byte[] nonceBase;
  private long sequence;
  private long bytes;
  private long epoch;

  private GcmRecords(int mode, int keyLength, byte[] secret, long rekeyRecords, long rekeyBytes) {
    this.mode = mode;
    this.keyLength = keyLength;
    this.rekeyRecords = rekeyRecords;
    this.rekeyBytes = rekeyBytes;
    try {
      this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
    } catch (NoSuchAlgorithmException | NoSuchPaddingException e) {
      throw new IllegalStateException("AES/GCM/NoPadding is unavailable in this Java runtime: " + e.getMessage(), e);
    }
    install(secret);
  }

  /** The sealing side of {@code secret}. */
  static GcmRecords sealer(int keyLength, byte[] secret, long rekeyRecords, long rekeyBytes) {
    return new GcmRecords(Cipher.ENCRYPT_MODE, keyLength, secret, rekeyRecords, rekeyBytes);
  }

  /** The opening side of {@code secret}. */
  static GcmRecords opener(int keyLength, byte[] secret, long rekeyRecords, long rekeyBytes) {
    return new GcmRecords(Cipher.DECRYPT_MODE, keyLength, secret, rekeyRecords, rekeyBytes);
  }

  private void install(byte[] next) {
    secret = next;
    key = new SecretKeySpec(Hkdf.expand(secret, "key", keyLength), "AES");
    nonceBase = Hkdf.expand(secret, "iv", NONCE);
    sequence = 0;
    bytes = 0;
  }

  /** How many times the secret has been ratcheted; for tests. */
  long epoch() {
    return epoch;
  }

  /**
   * Encrypts {@code length} bytes into {@code out} at {@code outOffset} (room for {@code length + TAG} bytes) and
   * returns the record's length. {@code out} must not overlap the input.
   */
  int seal(byte[] plain, int offset, int length, byte[] out, int outOffset) throws GeneralSecurityException {
    next(length);
    return cipher.doFinal(plain, offset, length, out, outOffset);
  }

  /**
   * Decrypts and authenticates one record, returning its plain bytes in a new array; a record that was forged,
   * altered, replayed, reordered or cut short throws {@link javax.crypto.AEADBadTagException}.
   */
  byte[] open(byte[] record, int length) throws GeneralSecurityException {
    if (length < TAG) {
      throw new AEADBadTagException("record of " + length + " bytes is shorter than its tag");
    }
    next(length - TAG);
    byte[] plain = new byte[length - TAG];
    cipher.doFinal(record, 0, length, plain, 0);
    return plain;
  }

  /** Ratchets when this key has done its share, then sets the cipher up for the next sequence number. */
  private void next(int plainLength) throws GeneralSecurityException {
    if (sequence == rekeyRecords || bytes + plainLength > rekeyBytes) {
      install(Hkdf.expand(secret, "next", secret.length));
      epoch++;
    }
    System.arraycopy(nonceBase, 0, nonce, 0, NONCE);
    for (int i = 0; i < 8; i++) {
      nonce[NONCE - 1 - i] ^= (byte) (sequence >>> (8 * i));
    }
    sequence++;
    bytes += plainLength;
    cipher.init(mode, key, new GCMParameterSpec(TAG * 8, nonce));
  }
}
