package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityMode;
import io.securethrift.core.TestLimits;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testing.AllocationMeter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/** The framed transport's limits, checked on the test thread so its allocations can be counted exactly. */
class FramedTransportTest {
  private static final PeerIdentity PEER =
      TestIdentities.builder(SecurityMode.NONE, new InetSocketAddress("127.0.0.1", 1)).build();

  private static final String CLOSED = "closed the connection with /127.0.0.1:1: ";

  private static FramedTransport framed(byte[] wire, int maxFrame) throws TTransportException {
    return new FramedTransport(new TMemoryInputTransport(wire), PEER, TestLimits.of(maxFrame, 1024), Role.SERVER);
  }

  @Test
  void headerOverTheLimitIsRefusedNamingTheSetting() {
    byte[] wire = ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array();
    TTransportException e =
        assertThrows(TTransportException.class, () -> framed(wire, 1 << 20).read(new byte[1], 0, 1));
    assertEquals(CLOSED + "frame header declares 2147483647 bytes, more than securethrift.limit.max.frame.size"
        + " (1048576 bytes); raise the limit if the peer really sends messages this large", e.getMessage());
  }

  @Test
  void negativeLengthIsRefused() {
    byte[] wire = ByteBuffer.allocate(4).putInt(-5).array();
    TTransportException e =
        assertThrows(TTransportException.class, () -> framed(wire, 1 << 20).read(new byte[1], 0, 1));
    assertEquals(CLOSED + "frame header declares a negative length (-5); the peer is not speaking this protocol",
        e.getMessage());
  }

  @Test
  void declaredButUnsentFrameCostsOnlyWhatArrived() throws Exception {
    int declared = 1 << 30;
    byte[] wire = ByteBuffer.allocate(14).putInt(declared).put(new byte[10]).array();
    FramedTransport transport = framed(wire, declared);
    long before = AllocationMeter.allocatedBytes();
    TTransportException e = assertThrows(TTransportException.class, () -> transport.read(new byte[1], 0, 1));
    long allocated = AllocationMeter.allocatedBytes() - before;
    assertEquals("connection closed after 10 of 1073741824 bytes of a frame", e.getMessage());
    assertTrue(allocated < 256 * 1024, "allocated " + allocated + " bytes for a 1 GiB header with 10 bytes behind it");
  }

  /**
   * The buffer grows fourfold as bytes arrive: a peer that stops part way costs at most four times what it sent, and
   * a whole 1 MiB frame is copied through 64 and 256 KiB only (doubling went through 128 and 512 KiB as well).
   */
  @Test
  void aFramesBufferGrowsWithWhatArrives() throws Exception {
    int sent = 100 * 1024;
    byte[] partial = ByteBuffer.allocate(4 + sent).putInt(1 << 30).array();
    FramedTransport stopped = framed(partial, 1 << 30);
    long before = AllocationMeter.allocatedBytes();
    TTransportException e = assertThrows(TTransportException.class, () -> stopped.read(new byte[1], 0, 1));
    long allocated = AllocationMeter.allocatedBytes() - before;
    assertEquals("connection closed after 102400 of 1073741824 bytes of a frame", e.getMessage());
    assertTrue(allocated < 4L * sent, "allocated " + allocated + " bytes for " + sent + " sent");

    int whole = 1 << 20;
    FramedTransport complete = framed(ByteBuffer.allocate(4 + whole).putInt(whole).array(), whole);
    before = AllocationMeter.allocatedBytes();
    complete.read(new byte[1], 0, 1);
    allocated = AllocationMeter.allocatedBytes() - before;
    assertTrue(allocated < whole + whole / 2, "allocated " + allocated + " bytes to read a 1 MiB frame");
  }

  @Test
  void everyFrameGetsItsOwnArraySoKeptBuffersStayIntact() throws Exception {
    byte[] wire = ByteBuffer.allocate(10).putInt(1).put((byte) 1).putInt(1).put((byte) 2).array();
    FramedTransport transport = framed(wire, 1024);
    transport.read(new byte[1], 0, 1);
    byte[] first = transport.getBuffer();
    transport.read(new byte[1], 0, 1);
    assertEquals(1, first[0], "the first frame's bytes must survive reading the second");
    assertEquals(2, transport.getBuffer()[0]);
  }

  @Test
  void truncatedHeaderIsReportedAsEndOfStream() {
    TTransportException e = assertThrows(TTransportException.class,
        () -> framed(new byte[] {0, 0}, 1024).read(new byte[1], 0, 1));
    assertEquals(TTransportException.END_OF_FILE, e.getType());
    assertEquals("connection closed after 2 of 4 bytes of a frame", e.getMessage());
  }

  @Test
  void lengthLongerThanTheRestOfItsFrameIsRefusedBeforeAllocation() throws Exception {
    byte[] wire = ByteBuffer.allocate(12).putInt(8).put(new byte[8]).array();
    FramedTransport transport = framed(wire, 1024);
    transport.read(new byte[2], 0, 2);
    transport.checkReadBytesAvailable(6);
    TTransportException e = assertThrows(TTransportException.class, () -> transport.checkReadBytesAvailable(100));
    assertEquals(CLOSED + "message declares 100 bytes but only 6 remain in its frame", e.getMessage());
    assertEquals(TTransportException.END_OF_FILE, e.getType(), "a Thrift server loop ends it without an ERROR");
  }

  @Test
  void negativeLengthInsideAMessageIsRefused() throws Exception {
    byte[] wire = ByteBuffer.allocate(12).putInt(8).put(new byte[8]).array();
    FramedTransport transport = framed(wire, 1024);
    transport.read(new byte[2], 0, 2);
    TTransportException e = assertThrows(TTransportException.class, () -> transport.checkReadBytesAvailable(-5));
    assertEquals(CLOSED + "message declares a negative length (-5)", e.getMessage());
  }

  @Test
  void lengthReadAsTheFramesLastBytesIsRefusedToo() throws Exception {
    byte[] wire = ByteBuffer.allocate(12).putInt(8).put(new byte[8]).array();
    FramedTransport transport = framed(wire, 1024);
    transport.read(new byte[8], 0, 8);
    TTransportException e =
        assertThrows(TTransportException.class, () -> transport.checkReadBytesAvailable(196_608_000));
    assertEquals(CLOSED + "message declares 196608000 bytes but only 0 remain in its frame", e.getMessage());
  }
}
