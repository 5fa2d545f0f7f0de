package io.securethrift.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read-while-calling rule and the buffer handling: reads stay on while a message runs until a whole next message,
 * {@value ReadBuffer#READ_AHEAD} bytes of it or a header over the limit waits; what waits behind a running message
 * goes to the heap; the buffer grows with what arrived, never with what a header declared.
 */
class ReadBufferTest {
  private static final int MAX = 1 << 20;

  /** Counts the direct memory the buffer takes, reallocations included. */
  private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(true);
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final ReadBuffer buffer = new ReadBuffer();

  @AfterEach
  void close() {
    buffer.release();
    assertEquals(0, alloc.metric().usedDirectMemory(), "the buffer was given back");
    channel.finishAndReleaseAll();
  }

  private static ByteBuf header(int declared) {
    return Unpooled.buffer(4).writeInt(declared);
  }

  private static ByteBuf bytes(int count) {
    return Unpooled.wrappedBuffer(new byte[count]);
  }

  @Test
  void eachReadIsCopiedAndReleasedAndTheBufferGrowsWithWhatArrivedOnly() {
    ByteBuf read = header(MAX);
    buffer.add(alloc, read);
    assertEquals(0, read.refCnt(), "the read's own buffer is released at once");
    buffer.add(alloc, bytes(1000));
    assertEquals(1004, buffer.available());
    // A 1 MiB frame declared, 1,004 bytes received: the buffer holds about that, not the declared size.
    assertTrue(alloc.metric().usedDirectMemory() <= 2048, String.valueOf(alloc.metric().usedDirectMemory()));
    buffer.bytes().skipBytes(1004);
    buffer.settle(channel, false, false, 4, MAX);
    assertNull(buffer.bytes(), "an idle connection holds no buffer");
    assertEquals(0, alloc.metric().usedDirectMemory());
  }

  @Test
  void readsGoOnWhileACallRunsUntilSixtyFourKibibytesOfTheNextMessageWait() {
    buffer.add(alloc, header(MAX));
    buffer.add(alloc, bytes(ReadBuffer.READ_AHEAD - 1));
    buffer.settle(channel, true, false, 4, MAX);
    assertTrue(channel.config().isAutoRead(), "part of the next message waits: reads go on");
    buffer.add(alloc, bytes(1));
    buffer.settle(channel, true, false, 4, MAX);
    assertFalse(channel.config().isAutoRead(), "64 KiB of the next message wait: reads stop");
    buffer.settle(channel, false, false, 4, MAX);
    assertTrue(channel.config().isAutoRead(), "the call was answered: reads go on");
  }

  @Test
  void aWholeSmallMessageBehindTheRunningOneStopsReads() {
    buffer.add(alloc, header(10));
    buffer.add(alloc, bytes(9));
    buffer.settle(channel, true, false, 4, MAX);
    assertTrue(channel.config().isAutoRead());
    buffer.add(alloc, bytes(1));
    buffer.settle(channel, true, false, 4, MAX);
    assertFalse(channel.config().isAutoRead());
  }

  @Test
  void aHeaderOverTheLimitOrNegativeStopsReadsAtOnce() {
    buffer.add(alloc, header(MAX + 1));
    buffer.settle(channel, true, false, 4, MAX);
    assertFalse(channel.config().isAutoRead(), "over the limit: refused when its turn comes, nothing more is read");
    buffer.release();
    buffer.settle(channel, false, false, 4, MAX);
    buffer.add(alloc, header(-1));
    buffer.settle(channel, true, false, 4, MAX);
    assertFalse(channel.config().isAutoRead(), "negative");
  }

  @Test
  void aNegotiationHeaderDeclaresItsLengthAfterItsStatusByte() {
    buffer.add(alloc, Unpooled.buffer(5).writeByte(2).writeInt(100));
    buffer.add(alloc, bytes(99));
    buffer.settle(channel, true, false, 5, 200);
    assertTrue(channel.config().isAutoRead());
    buffer.add(alloc, bytes(1));
    buffer.settle(channel, true, false, 5, 200);
    assertFalse(channel.config().isAutoRead());
  }

  @Test
  void nothingChangesOnceTheConnectionCloses() {
    buffer.add(alloc, header(10));
    buffer.add(alloc, bytes(10));
    buffer.settle(channel, true, true, 4, MAX);
    assertTrue(channel.config().isAutoRead());
  }

  @Test
  void whatWaitsBehindARunningCallMovesToTheHeapAndARequestReplyClientsBufferStaysPooled() {
    buffer.add(alloc, header(10));
    buffer.add(alloc, bytes(5));
    buffer.settle(channel, false, false, 4, MAX);
    assertTrue(buffer.bytes().isDirect(), "no call runs: the read buffer stays in the pool's direct memory");
    buffer.settle(channel, true, false, 4, MAX);
    assertFalse(buffer.bytes().isDirect(), "behind a running call: on the heap");
    assertEquals(0, alloc.metric().usedDirectMemory());
    assertEquals(9, buffer.available());
  }

  @Test
  void aBufferThatGrewForALargeMessageShrinksToWhatIsLeft() {
    buffer.add(alloc, header(200_000));
    buffer.add(alloc, bytes(200_000));
    buffer.add(alloc, bytes(10));
    buffer.bytes().skipBytes(200_004);
    buffer.settle(channel, false, false, 4, MAX);
    assertEquals(10, buffer.available());
    assertTrue(buffer.bytes().capacity() <= ReadBuffer.READ_AHEAD, String.valueOf(buffer.bytes().capacity()));
  }

  @Test
  void theRestIsHandedOverWithReadsOn() {
    buffer.add(alloc, header(3));
    buffer.add(alloc, bytes(3));
    buffer.settle(channel, true, false, 4, MAX);
    assertFalse(channel.config().isAutoRead());
    ByteBuf rest = buffer.handOver(channel);
    assertTrue(channel.config().isAutoRead());
    assertEquals(7, rest.readableBytes());
    assertEquals(0, buffer.available());
    rest.release();
    buffer.add(alloc, bytes(2));
    buffer.bytes().skipBytes(2);
    assertNull(buffer.handOver(channel), "nothing left: nothing handed over");
  }
}
