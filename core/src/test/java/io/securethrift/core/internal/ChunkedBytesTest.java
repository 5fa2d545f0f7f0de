package io.securethrift.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChunkedBytesTest {
  private static byte[] random(int length, long seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void aSmallMessageStaysInOneSmallArray() {
    ChunkedBytes bytes = new ChunkedBytes(256);
    bytes.write(random(100, 1), 0, 100);
    bytes.write(random(300, 2), 0, 300);
    assertEquals(1, bytes.chunks());
    assertEquals(400, bytes.length(0));
    assertEquals(512, bytes.first().length, "doubled once, not sized to a chunk");
  }

  @Test
  void aLargeMessageIsHeldInChunksNoneLargerThanAChunkInTheOrderWritten() {
    byte[] message = random((1 << 20) + 123, 3);
    ChunkedBytes bytes = new ChunkedBytes(1024);
    // Written in uneven pieces, as a protocol writes a message.
    int[] pieces = {4, 1, 70_000, 3, 65_536, 999_999};
    int at = 0;
    for (int piece : pieces) {
      int n = Math.min(piece, message.length - at);
      bytes.write(message, at, n);
      at += n;
    }
    bytes.write(message, at, message.length - at);
    assertEquals(message.length, bytes.size());
    List<byte[]> arrays = bytes.toArrays();
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    for (byte[] array : arrays) {
      assertTrue(array.length <= ChunkedBytes.CHUNK, array.length + " bytes in one array");
      joined.writeBytes(array);
    }
    assertArrayEquals(message, joined.toByteArray());
    assertEquals(5, arrays.size());
    assertArrayEquals(message, bytes.toArray());
  }

  @Test
  void clearKeepsOnlyTheFirstChunkAndStartsEmpty() {
    ChunkedBytes bytes = new ChunkedBytes(16);
    bytes.write(random(300_000, 4), 0, 300_000);
    byte[] first = bytes.first();
    bytes.clear();
    assertEquals(0, bytes.size());
    assertEquals(1, bytes.chunks());
    assertEquals(0, bytes.length(0));
    assertSame(first, bytes.first());
    byte[] next = random(10, 5);
    bytes.write(next, 0, 10);
    assertArrayEquals(next, bytes.toArray());
  }
}
