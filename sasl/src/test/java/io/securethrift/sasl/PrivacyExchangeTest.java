package io.securethrift.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/** The key exchange's messages and key schedule, and the records' nonces and ratchet, without a network. */
class PrivacyExchangeTest {
  private static final byte[] PLAIN = "a Thrift call, or part of one".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  @Test
  void bothSidesDeriveTheSameKeysOnePerDirection() throws Exception {
    byte[] hello = PrivacyExchange.hello();
    PrivacyExchange.Answer answer = PrivacyExchange.answer(hello, hello.length);
    PrivacyExchange.Keys client = PrivacyExchange.finish(hello, answer.message, answer.message.length);
    assertNotNull(client);
    assertEquals(PrivacyExchange.AES_256_GCM, client.cipher);
    assertEquals("AES-256-GCM", client.cipherName());
    assertArrayEquals(answer.keys.clientToServer, client.clientToServer);
    assertArrayEquals(answer.keys.serverToClient, client.serverToClient);
    assertFalse(Arrays.equals(client.clientToServer, client.serverToClient));
    // Fresh randoms on both sides: a second exchange shares nothing with the first.
    byte[] again = PrivacyExchange.hello();
    assertFalse(Arrays.equals(client.clientToServer,
        PrivacyExchange.answer(again, again.length).keys.clientToServer));
  }

  @Test
  void noThriftMessageLooksLikeAnExchange() {
    assertTrue(PrivacyExchange.isExchange(PrivacyExchange.hello(), 41));
    byte[][] thrift = {{(byte) 0x80, 0x01, 0x00, 0x01}, {(byte) 0x82, 0x21, 0x01, 0x04}, {0x00, 0x00, 0x00, 0x04},
        {(byte) 0xF5, 0x53, 0x54}};
    for (byte[] start : thrift) {
      assertFalse(PrivacyExchange.isExchange(start, start.length), Arrays.toString(start));
    }
  }

  /** Any byte of the hello or the answer changed in transit gives the client a confirmation it refuses. */
  @Test
  void anAlteredTranscriptIsRefused() throws Exception {
    byte[] hello = PrivacyExchange.hello();
    byte[] answer = PrivacyExchange.answer(hello, hello.length).message;
    for (int i = 0; i < answer.length; i++) {
      byte[] altered = answer.clone();
      altered[i] ^= 1;
      TTransportException e = assertThrows(TTransportException.class,
          () -> PrivacyExchange.finish(hello, altered, altered.length), "byte " + i);
      assertEquals(TTransportException.CORRUPTED_DATA, e.getType());
    }
    byte[] otherHello = hello.clone();
    otherHello[otherHello.length - 1] ^= 1;
    assertThrows(TTransportException.class, () -> PrivacyExchange.finish(otherHello, answer, answer.length));
  }

  @Test
  void aHelloWithNothingInCommonIsDeclinedNotRefused() throws Exception {
    byte[] unknown = PrivacyExchange.hello();
    unknown[PrivacyExchange.MAGIC.length + 3] = 9;
    unknown[PrivacyExchange.MAGIC.length + 4] = 9;
    PrivacyExchange.Answer declined = PrivacyExchange.answer(unknown, unknown.length);
    assertNull(declined.keys);
    assertNull(PrivacyExchange.finish(unknown, declined.message, declined.message.length));
    byte[] later = PrivacyExchange.hello();
    later[PrivacyExchange.MAGIC.length] = 2;
    assertNull(PrivacyExchange.answer(later, later.length).keys);
  }

  @Test
  void malformedMessagesAreRefused() throws Exception {
    byte[] hello = PrivacyExchange.hello();
    assertThrows(TTransportException.class, () -> PrivacyExchange.answer(hello, hello.length - 1));
    assertThrows(TTransportException.class, () -> PrivacyExchange.answer(new byte[5000], 5000));
    byte[] answer = PrivacyExchange.answer(hello, hello.length).message;
    TTransportException e = assertThrows(TTransportException.class,
        () -> PrivacyExchange.finish(hello, answer, answer.length - 1));
    assertTrue(e.getMessage().contains("malformed answer of 70 bytes"), e.getMessage());
    assertThrows(TTransportException.class, () -> PrivacyExchange.answer(answer, answer.length));
  }

  @Test
  void recordsRoundTripAndNeverRepeatANonce() throws Exception {
    byte[] secret = new byte[32];
    GcmRecords sealer = GcmRecords.sealer(null, 32, secret, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    GcmRecords opener = GcmRecords.opener(null, 32, secret, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    byte[] first = seal(sealer, PLAIN);
    byte[] second = seal(sealer, PLAIN);
    assertFalse(Arrays.equals(first, second), "the same plain text sealed twice must differ");
    assertArrayEquals(PLAIN, open(opener, first));
    assertArrayEquals(PLAIN, open(opener, second));
    // Replaying the first record at the third position fails: the sequence number is in the nonce.
    assertThrows(AEADBadTagException.class, () -> open(opener, first));
  }

  /** Both ends ratchet at the same record; an end that ratchets elsewhere can read nothing past that point. */
  @Test
  void keysRatchetAfterTheDocumentedCount() throws Exception {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) 7);
    GcmRecords sealer = GcmRecords.sealer(null, 16, secret, 3, GcmRecords.REKEY_BYTES);
    GcmRecords opener = GcmRecords.opener(null, 16, secret, 3, GcmRecords.REKEY_BYTES);
    GcmRecords stale = GcmRecords.opener(null, 16, secret, 4, GcmRecords.REKEY_BYTES);
    for (int i = 0; i < 10; i++) {
      byte[] record = seal(sealer, PLAIN);
      assertArrayEquals(PLAIN, open(opener, record));
      if (i < 3) {
        assertArrayEquals(PLAIN, open(stale, record));
      } else if (i == 3) {
        assertThrows(AEADBadTagException.class, () -> open(stale, record));
      }
    }
    assertEquals(3, sealer.epoch());
    assertEquals(3, opener.epoch());
    GcmRecords byBytes = GcmRecords.sealer(null, 16, secret, GcmRecords.REKEY_RECORDS, 2L * PLAIN.length);
    GcmRecords byBytesOpener = GcmRecords.opener(null, 16, secret, GcmRecords.REKEY_RECORDS, 2L * PLAIN.length);
    for (int i = 0; i < 5; i++) {
      byte[] record = seal(byBytes, PLAIN);
      assertArrayEquals(PLAIN, open(byBytesOpener, record));
    }
    assertEquals(2, byBytes.epoch());
  }

  private static byte[] open(GcmRecords opener, byte[] record) throws Exception {
    byte[] plain = new byte[record.length - GcmRecords.TAG];
    assertEquals(plain.length, opener.open(record, record.length, plain, 0));
    return plain;
  }

  private static byte[] seal(GcmRecords sealer, byte[] plain) throws Exception {
    byte[] out = new byte[plain.length + GcmRecords.TAG];
    assertEquals(out.length, sealer.seal(plain, 0, plain.length, out, 0));
    return out;
  }
}
