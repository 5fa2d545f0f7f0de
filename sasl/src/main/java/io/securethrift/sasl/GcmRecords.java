package io.securethrift.sasl;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
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
 *
 * <p>One sealed message (a frame's payload) is a run of records of {@link #RECORD} plain bytes, the last one shorter
 * or full; each record but the last carries one byte of associated data, {@code 1}, so a message cut after any record
 * fails at its new last record. The cut is fixed by the message's length alone, so the opener finds the same records.
 * Messages of at most {@link #RECORD} bytes, all that securethrift's own transports send, are one record. Larger ones
 * come from libthrift's transports, which wrap each Thrift message whole; cutting them keeps SunJCE on its compiled
 * path: a single {@code doFinal} of about 700 KB or more ran at 32 MB/s on JDK 17, 21 and 25 here (its few calls a
 * second never get the callers compiled that use the AES and GHASH intrinsics), against 1.4 GB/s in 64 KiB records.
 *
 * <p>The cipher comes from the configured provider ({@code SecurityConfig.Builder.saslPrivacyProvider}), else from the
 * first provider in the JVM's list that has AES/GCM/NoPadding (normally the JDK's SunJCE). Records are sealed straight
 * from the caller's array and opened straight into the reader's: SunJCE works on the arrays in place, and so does the
 * Amazon Corretto Crypto Provider, which pins them for its native code (it is four times slower on direct buffers).
 * Conscrypt instead copies every array it is given, whole, in and out of native memory: handed a 1 MiB message to
 * seal 64 KiB of, it would copy 1 MiB per record. It gets direct buffers, which it uses without copying: the record's
 * bytes are copied in once and the result out once.
 */
final class GcmRecords {
  /** Bytes the tag adds to every record. */
  static final int TAG = 16;
  /**
   * Largest plain bytes per record: big enough that the per-record set-up is noise, small enough to stream, and with
   * its tag exactly the 64 KiB a frame reader allocates first, so a record is read without growing a buffer.
   */
  static final int RECORD = 64 * 1024 - TAG;
  /** A whole record on the wire. */
  private static final int FULL = RECORD + TAG;
  /** The associated data of every record that is not its message's last. */
  private static final byte[] MORE = {1};
  /** Records per key before the ratchet: far below the 2^32 invocations NIST SP 800-38D allows one GCM key. */
  static final long REKEY_RECORDS = 1L << 20;
  /** Plain bytes per key before the ratchet (4 GiB), well inside AES-GCM's confidentiality bound for one key. */
  static final long REKEY_BYTES = 1L << 32;
  private static final int NONCE = 12;
  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  /**
   * The name of the one provider known to copy whole arrays (Conscrypt's {@code OpenSSLProvider}); any other provider
   * is handed arrays, the JCA's ordinary way.
   */
  private static final String COPIES_ARRAYS = "Conscrypt";

  private final int mode;
  private final int keyLength;
  private final long rekeyRecords;
  private final long rekeyBytes;
  private final Cipher cipher;
  /** Whether the cipher reads and writes only the ranges it is given, so it needs no direct buffers. */
  private final boolean inPlace;
  /** Input and output of one record in native memory, for a provider that copies whole arrays; grown as needed. */
  private ByteBuffer directIn = ByteBuffer.allocateDirect(0);
  private ByteBuffer directOut = directIn;
  private final byte[] nonce = new byte[NONCE];
  private byte[] secret;
  private SecretKeySpec key;
  private byte[] nonceBase;
  private long sequence;
  private long bytes;
  private long epoch;

  private GcmRecords(int mode, Provider provider, int keyLength, byte[] secret, long rekeyRecords,
      long rekeyBytes) {
    this.mode = mode;
    this.keyLength = keyLength;
    this.rekeyRecords = rekeyRecords;
    this.rekeyBytes = rekeyBytes;
    this.cipher = cipher(provider);
    this.inPlace = !cipher.getProvider().getName().equals(COPIES_ARRAYS);
    install(secret);
  }

  /** AES/GCM/NoPadding from {@code provider}, or from the JVM's list when it is null. */
  static Cipher cipher(Provider provider) {
    try {
      return provider == null ? Cipher.getInstance(TRANSFORMATION) : Cipher.getInstance(TRANSFORMATION, provider);
    } catch (NoSuchAlgorithmException | NoSuchPaddingException e) {
      throw new IllegalStateException(TRANSFORMATION + " is unavailable from "
          + (provider == null ? "every provider of this Java runtime" : "the provider " + provider.getName()) + ": "
          + e.getMessage(), e);
    }
  }

  /** The sealing side of {@code secret}; {@code provider} null means the JVM's list. */
  static GcmRecords sealer(Provider provider, int keyLength, byte[] secret, long rekeyRecords, long rekeyBytes) {
    return new GcmRecords(Cipher.ENCRYPT_MODE, provider, keyLength, secret, rekeyRecords, rekeyBytes);
  }

  /** The opening side of {@code secret}; {@code provider} null means the JVM's list. */
  static GcmRecords opener(Provider provider, int keyLength, byte[] secret, long rekeyRecords, long rekeyBytes) {
    return new GcmRecords(Cipher.DECRYPT_MODE, provider, keyLength, secret, rekeyRecords, rekeyBytes);
  }

  /** The provider that seals or opens this direction's records. */
  Provider provider() {
    return cipher.getProvider();
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
   * The sealed length of a message of {@code plainLength} bytes: one tag per record. Throws
   * {@link IllegalArgumentException} past the largest Java array.
   */
  static int sealedLength(int plainLength) {
    long sealed = plainLength + (long) TAG * Math.max(1, (plainLength + (long) RECORD - 1) / RECORD);
    if (plainLength < 0 || sealed > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("cannot seal a message of " + plainLength + " bytes: its records would"
          + " take " + sealed + " bytes, more than one Java array holds");
    }
    return (int) sealed;
  }

  /**
   * The plain bytes in a sealed message of {@code sealedLength} bytes, or -1 when no sealed message is that long (its
   * last record shorter than a tag).
   */
  static int plainLength(int sealedLength) {
    int rest = sealedLength % FULL;
    int records = sealedLength / FULL + (rest == 0 ? 0 : 1);
    return sealedLength == 0 || (rest != 0 && rest < TAG) ? -1 : sealedLength - records * TAG;
  }

  /** The most plain bytes whose sealed message fits in {@code sealedBudget} bytes; 0 when not even a tag fits. */
  static int plainCapacity(int sealedBudget) {
    int rest = sealedBudget % FULL;
    return sealedBudget / FULL * RECORD + Math.max(0, rest - TAG);
  }

  /**
   * Seals {@code length} bytes into {@code out} at {@code outOffset} (room for {@link #sealedLength} bytes) and
   * returns the sealed length. {@code out} must not overlap the input.
   */
  int seal(byte[] plain, int offset, int length, byte[] out, int outOffset) throws GeneralSecurityException {
    int read = 0;
    int written = 0;
    do {
      int n = Math.min(RECORD, length - read);
      next(n, read + n < length);
      written += inPlace ? cipher.doFinal(plain, offset + read, n, out, outOffset + written)
          : throughDirect(plain, offset + read, n, out, outOffset + written);
      read += n;
    } while (read < length);
    return written;
  }

  /**
   * Decrypts and authenticates one sealed message ({@code length} bytes at the start of {@code sealed}), writes its
   * plain bytes into {@code out} at {@code outOffset} and returns their count, {@link #plainLength}. {@code out} may be
   * {@code sealed} itself at offset 0. A message that was forged, altered, replayed, reordered or cut short throws
   * {@link javax.crypto.AEADBadTagException}; what was written to {@code out} then must not be used.
   */
  int open(byte[] sealed, int length, byte[] out, int outOffset) throws GeneralSecurityException {
    if (plainLength(length) < 0) {
      throw new AEADBadTagException("sealed message of " + length + " bytes ends in a record shorter than its tag");
    }
    int read = 0;
    int written = 0;
    do {
      int n = Math.min(FULL, length - read);
      next(n - TAG, read + n < length);
      written += inPlace ? cipher.doFinal(sealed, read, n, out, outOffset + written)
          : throughDirect(sealed, read, n, out, outOffset + written);
      read += n;
    } while (read < length);
    return written;
  }

  /** One record through native memory: {@code length} bytes copied in, the cipher's output copied out. */
  private int throughDirect(byte[] in, int offset, int length, byte[] out, int outOffset)
      throws GeneralSecurityException {
    if (directIn.capacity() < length + TAG) {
      int capacity = Math.max(length + TAG, 2 * directIn.capacity());
      directIn = ByteBuffer.allocateDirect(capacity);
      directOut = ByteBuffer.allocateDirect(capacity);
    }
    directIn.clear();
    directIn.put(in, offset, length).flip();
    directOut.clear();
    int n = cipher.doFinal(directIn, directOut);
    directOut.flip();
    directOut.get(out, outOffset, n);
    return n;
  }

  /**
   * Ratchets when this key has done its share, then sets the cipher up for the next sequence number and, for a record
   * that is not its message's last, its associated data.
   */
  private void next(int plainLength, boolean more) throws GeneralSecurityException {
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
    if (more) {
      cipher.updateAAD(MORE);
    }
  }
}
