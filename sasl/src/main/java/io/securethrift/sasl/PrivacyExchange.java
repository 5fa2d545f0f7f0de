package io.securethrift.sasl;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.apache.thrift.transport.TTransportException;

/**
 * The two messages of DIGEST-MD5's AES-GCM key exchange ({@code securethrift.sasl.privacy}) and the keys they yield
 * (GSSAPI agrees its keys inside its own exchange: {@link GcmKeys}). Both travel as the first data frame each way,
 * wrapped by DIGEST-MD5 at {@code auth-conf}, so they are as secret and as tamper-proof as its session;
 * docs/sasl-privacy.md has the diagram.
 *
 * <pre>
 * hello  (client): magic F5 53 54 50 | version 1 | type 1 | n | n cipher ids | 32 random bytes
 * answer (server): magic F5 53 54 50 | version 1 | type 2 | chosen cipher id (0: declined) | 32 random bytes
 *                  | 32-byte confirmation
 * </pre>
 *
 * No Thrift message starts with the magic: strict binary starts 0x80 0x01, compact 0x82, and non-strict binary with
 * a non-negative name length, where 0xF5 is negative. Keys: PRK = HKDF-Extract(salt = SHA-256(hello | answer without
 * its confirmation), client random | server random); confirmation = HKDF-Expand(PRK, "confirm"); traffic secrets =
 * HKDF-Expand(PRK, "client to server") and ("server to client"), each expanded by {@link GcmRecords} into a key and a
 * nonce base. Binding the transcript into the salt means a hello or answer altered in any way yields other keys and
 * a confirmation the client refuses.
 */
final class PrivacyExchange {
  static final byte[] MAGIC = {(byte) 0xF5, 'S', 'T', 'P'};
  static final int VERSION = 1;
  static final int HELLO = 1;
  static final int ANSWER = 2;
  static final int DECLINED = 0;
  static final int AES_128_GCM = 1;
  static final int AES_256_GCM = 2;
  /** What this side offers and accepts, preferred first. */
  private static final byte[] CIPHERS = {AES_256_GCM, AES_128_GCM};
  private static final int RANDOM = 32;
  private static final int CONFIRM = 32;
  private static final int HEADER = MAGIC.length + 2;
  private static final int ANSWER_LENGTH = HEADER + 1 + RANDOM + CONFIRM;
  /** Largest hello accepted: a header, up to 255 cipher ids and the random. */
  static final int MAX_HELLO = HEADER + 1 + 255 + RANDOM;
  private static final SecureRandom RANDOMS = new SecureRandom();

  /** The keys of a completed exchange. */
  static final class Keys {
    final int cipher;
    final byte[] clientToServer;
    final byte[] serverToClient;

    private Keys(int cipher, byte[] clientToServer, byte[] serverToClient) {
      this.cipher = cipher;
      this.clientToServer = clientToServer;
      this.serverToClient = serverToClient;
    }

    /** AES key length of the chosen cipher, in bytes. */
    int keyLength() {
      return cipher == AES_256_GCM ? 32 : 16;
    }

    String cipherName() {
      return cipher == AES_256_GCM ? "AES-256-GCM" : "AES-128-GCM";
    }
  }

  /** What a server sends back, and the keys unless it declined. */
  static final class Answer {
    final byte[] message;
    /** Null when the server declined: no cipher or version in common. */
    final Keys keys;

    private Answer(byte[] message, Keys keys) {
      this.message = message;
      this.keys = keys;
    }
  }

  private PrivacyExchange() {}

  /** Whether plain data-phase bytes begin with the exchange's magic, which no Thrift message does. */
  static boolean isExchange(byte[] plain, int length) {
    return length >= MAGIC.length && Arrays.equals(plain, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /** A client's hello with a fresh random. */
  static byte[] hello() {
    return hello(random());
  }

  static byte[] hello(byte[] clientRandom) {
    ByteBuffer b = ByteBuffer.allocate(HEADER + 1 + CIPHERS.length + RANDOM);
    b.put(MAGIC).put((byte) VERSION).put((byte) HELLO).put((byte) CIPHERS.length).put(CIPHERS).put(clientRandom);
    return b.array();
  }

  /**
   * The server's answer to {@code hello} ({@code length} bytes of it), with a fresh random. A hello of a later
   * version or without a cipher this side knows is declined, not refused, so the server's setting decides.
   *
   * @throws TTransportException (CORRUPTED_DATA) when the hello is malformed
   */
  static Answer answer(byte[] hello, int length) throws TTransportException {
    return answer(hello, length, random());
  }

  static Answer answer(byte[] hello, int length, byte[] serverRandom) throws TTransportException {
    if (length < HEADER + 1 || length > MAX_HELLO || !isExchange(hello, length)) {
      throw malformed("hello of " + length + " bytes");
    }
    int version = hello[MAGIC.length] & 0xff;
    if (hello[MAGIC.length + 1] != HELLO) {
      throw malformed("message of type " + (hello[MAGIC.length + 1] & 0xff) + " where a hello belongs");
    }
    int count = hello[HEADER] & 0xff;
    if (length != HEADER + 1 + count + RANDOM) {
      throw malformed("hello of " + length + " bytes offering " + count + " ciphers");
    }
    int chosen = version == VERSION ? choose(hello, HEADER + 1, count) : DECLINED;
    byte[] message = new byte[ANSWER_LENGTH];
    ByteBuffer b = ByteBuffer.wrap(message);
    b.put(MAGIC).put((byte) VERSION).put((byte) ANSWER).put((byte) chosen).put(serverRandom);
    if (chosen == DECLINED) {
      return new Answer(message, null);
    }
    byte[] prk = prk(hello, length, message, HEADER + 1 + count, serverRandom);
    System.arraycopy(Hkdf.expand(prk, "confirm", CONFIRM), 0, message, ANSWER_LENGTH - CONFIRM, CONFIRM);
    return new Answer(message, keys(chosen, prk));
  }

  /**
   * The keys from the server's answer to this client's {@code hello}; null when the server declined.
   *
   * @throws TTransportException (CORRUPTED_DATA) when the answer is malformed, picks a cipher not offered, or its
   *     confirmation does not match
   */
  static Keys finish(byte[] hello, byte[] answer, int length) throws TTransportException {
    if (length != ANSWER_LENGTH || !isExchange(answer, length) || answer[MAGIC.length + 1] != ANSWER) {
      throw malformed("answer of " + length + " bytes");
    }
    int chosen = answer[HEADER] & 0xff;
    if (chosen == DECLINED) {
      return null;
    }
    if (answer[MAGIC.length] != VERSION || indexOf(CIPHERS, 0, CIPHERS.length, chosen) < 0
        || indexOf(hello, HEADER + 1, hello[HEADER] & 0xff, chosen) < 0) {
      throw malformed("answer choosing cipher " + chosen + ", which was not offered");
    }
    int count = hello[HEADER] & 0xff;
    byte[] serverRandom = Arrays.copyOfRange(answer, HEADER + 1, HEADER + 1 + RANDOM);
    byte[] prk = prk(hello, hello.length, answer, HEADER + 1 + count, serverRandom);
    byte[] expected = Hkdf.expand(prk, "confirm", CONFIRM);
    if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(answer, ANSWER_LENGTH - CONFIRM, ANSWER_LENGTH))) {
      throw malformed("answer whose confirmation does not match this exchange");
    }
    return keys(chosen, prk);
  }

  /** The first cipher this side supports, in its own order of preference, among {@code count} offered at offset. */
  private static int choose(byte[] offer, int offset, int count) {
    for (byte c : CIPHERS) {
      if (indexOf(offer, offset, count, c) >= 0) {
        return c;
      }
    }
    return DECLINED;
  }

  private static int indexOf(byte[] offer, int offset, int count, int cipher) {
    for (int i = 0; i < count; i++) {
      if ((offer[offset + i] & 0xff) == cipher) {
        return i;
      }
    }
    return -1;
  }

  /** PRK over both randoms, salted with the hash of both messages up to the confirmation. */
  private static byte[] prk(byte[] hello, int helloLength, byte[] answer, int clientRandomOffset,
      byte[] serverRandom) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this Java runtime: " + e.getMessage(), e);
    }
    sha.update(hello, 0, helloLength);
    sha.update(answer, 0, ANSWER_LENGTH - CONFIRM);
    byte[] ikm = new byte[2 * RANDOM];
    System.arraycopy(hello, clientRandomOffset, ikm, 0, RANDOM);
    System.arraycopy(serverRandom, 0, ikm, RANDOM, RANDOM);
    return Hkdf.extract(sha.digest(), ikm);
  }

  private static Keys keys(int cipher, byte[] prk) {
    return new Keys(cipher, Hkdf.expand(prk, "client to server", 32), Hkdf.expand(prk, "server to client", 32));
  }

  private static byte[] random() {
    byte[] r = new byte[RANDOM];
    RANDOMS.nextBytes(r);
    return r;
  }

  private static TTransportException malformed(String what) {
    return new TTransportException(TTransportException.CORRUPTED_DATA, "SASL privacy key exchange: malformed "
        + what + "; the peer is not a securethrift peer speaking version " + VERSION + ", or the data was altered");
  }
}
