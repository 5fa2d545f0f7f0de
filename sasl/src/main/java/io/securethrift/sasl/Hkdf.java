package io.securethrift.sasl;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HKDF with HMAC-SHA256 (RFC 5869); the JDK has no public HKDF before 24. */
final class Hkdf {
  private static final String HMAC = "HmacSHA256";
  private static final int HASH = 32;

  private Hkdf() {}

  /** The pseudorandom key from input key material and a salt. */
  static byte[] extract(byte[] salt, byte[] ikm) {
    return mac(salt).doFinal(ikm);
  }

  /** {@code length} bytes (at most 255 hash lengths) of output keyed by {@code prk} for the label {@code info}. */
  static byte[] expand(byte[] prk, String info, int length) {
    Mac mac = mac(prk);
    byte[] label = ("securethrift privacy " + info).getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[length];
    byte[] block = new byte[0];
    for (int filled = 0, counter = 1; filled < length; counter++) {
      mac.update(block);
      mac.update(label);
      mac.update((byte) counter);
      block = mac.doFinal();
      int n = Math.min(HASH, length - filled);
      System.arraycopy(block, 0, out, filled, n);
      filled += n;
    }
    return out;
  }

  private static Mac mac(byte[] key) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return mac;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      // Every Java SE runtime has HmacSHA256, and any non-empty key fits it.
      throw new IllegalStateException("HmacSHA256 is unavailable: " + e.getMessage(), e);
    }
  }
}
