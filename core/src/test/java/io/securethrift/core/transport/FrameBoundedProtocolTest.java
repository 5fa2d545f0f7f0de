package io.securethrift.core.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.SecurityMode;
import io.securethrift.core.TestLimits;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.TestIdentities;
import io.securethrift.core.internal.FrameTransport;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.testing.AllocationMeter;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a message may declare, read through {@link SecuredTransport#protocol} on both protocols, on the test thread so
 * allocations can be counted. The same checks run on libthrift 0.25 and 0.17 (the second test pass), where 0.17 counts
 * a struct as zero bytes.
 */
class FrameBoundedProtocolTest {
  private static final PeerIdentity PEER =
      TestIdentities.builder(SecurityMode.NONE, new InetSocketAddress("127.0.0.1", 1)).build();
  private static final String CLOSED = "closed the connection with /127.0.0.1:1: ";
  /** Far below every claim refused here; what a refusal costs is a log line and an exception. */
  private static final long SMALL = 1 << 20;

  /** Writes part of a message, as a hostile peer would, with whatever sizes it likes. */
  private interface Writer {
    void write(TProtocol protocol) throws TException;
  }

  static Stream<TProtocolFactory> protocols() {
    return Stream.of(new TBinaryProtocol.Factory(), new TCompactProtocol.Factory());
  }

  private static byte[] encode(TProtocolFactory factory, Writer writer) throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(64);
    writer.write(factory.getProtocol(buffer));
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  private static byte[] frames(byte[]... payloads) {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    for (byte[] payload : payloads) {
      wire.writeBytes(ByteBuffer.allocate(4).putInt(payload.length).array());
      wire.writeBytes(payload);
    }
    return wire.toByteArray();
  }

  private static TProtocol framed(TProtocolFactory factory, byte[] wire) throws TTransportException {
    return new FramedTransport(new TMemoryInputTransport(wire), PEER, TestLimits.of(1 << 20, 1024), Role.SERVER)
        .protocol(factory);
  }

  /** Begins a call whose first argument is a container: what a hostile peer sends before the count. */
  private static void callWithContainerArgument(TProtocol p, byte type) throws TException {
    p.writeMessageBegin(new TMessage("applyBatch", TMessageType.CALL, 1));
    p.writeStructBegin(new TStruct("args"));
    p.writeFieldBegin(new TField("entries", type, (short) 1));
  }

  /** Reads up to the first argument's field header. */
  private static void readToFirstField(TProtocol p) throws TException {
    p.readMessageBegin();
    p.readStructBegin();
    p.readFieldBegin();
  }

  private static void assertRefusedCheaply(String expected, Executable read) {
    long before = AllocationMeter.allocatedBytes();
    TTransportException e = assertThrows(TTransportException.class, read::run);
    long allocated = AllocationMeter.allocatedBytes() - before;
    assertEquals(CLOSED + expected, e.getMessage());
    assertTrue(allocated < SMALL, "allocated " + allocated + " bytes to refuse the claim");
  }

  private interface Executable {
    void run() throws TException;
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void aListOfStructsClaimingMoreThanItsFrameIsRefusedBeforeAllocation(TProtocolFactory factory) throws Exception {
    TProtocol p = framed(factory, frames(encode(factory, w -> {
      callWithContainerArgument(w, TType.LIST);
      w.writeListBegin(new TList(TType.STRUCT, Integer.MAX_VALUE));
    })));
    readToFirstField(p);
    assertRefusedCheaply("message declares 2147483647 bytes but only 0 remain in its frame", p::readListBegin);
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void aMapOfStructsCountsTwoBytesAnEntry(TProtocolFactory factory) throws Exception {
    TProtocol p = framed(factory, frames(encode(factory, w -> {
      callWithContainerArgument(w, TType.MAP);
      w.writeMapBegin(new TMap(TType.STRUCT, TType.STRUCT, 1 << 30));
    })));
    readToFirstField(p);
    assertRefusedCheaply("message declares 2147483648 bytes but only 0 remain in its frame", p::readMapBegin);
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void aSetOfStructsIsBoundedLikeAList(TProtocolFactory factory) throws Exception {
    TProtocol p = framed(factory, frames(encode(factory, w -> {
      callWithContainerArgument(w, TType.SET);
      w.writeSetBegin(new TSet(TType.STRUCT, 1_000_000));
    })));
    readToFirstField(p);
    assertRefusedCheaply("message declares 1000000 bytes but only 0 remain in its frame", p::readSetBegin);
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void aMethodNameLengthAtTheEndOfItsFrameIsRefused(TProtocolFactory factory) throws Exception {
    // The reported attack: the frame ends right after the length of the method name.
    byte[] header = encode(factory, w -> w.writeMessageBegin(new TMessage("x".repeat(196_608), TMessageType.CALL, 0)));
    // Binary: version, then the name's length; compact: protocol id, type and version, sequence id, the length.
    int keep = factory instanceof TBinaryProtocol.Factory ? 8 : header.length - 196_608;
    byte[] truncated = Arrays.copyOf(header, keep);
    for (TProtocol p : new TProtocol[] {framed(factory, frames(truncated)),
        factory.getProtocol(new FramedTransport(new TMemoryInputTransport(frames(truncated)), PEER,
            TestLimits.of(1 << 20, 1024), Role.SERVER))}) {
      assertRefusedCheaply("message declares 196608 bytes but only 0 remain in its frame", p::readMessageBegin);
    }
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void aMessageCannotRunOnIntoTheNextFrame(TProtocolFactory factory) throws Exception {
    byte[] begin = encode(factory, w -> w.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1)));
    byte[] rest = encode(factory, w -> w.writeI32(7));
    TProtocol p = framed(factory, frames(begin, rest));
    p.readMessageBegin();
    assertRefusedCheaply("message runs past the end of its frame", p::readI32);
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void consecutiveMessagesInTheirOwnFramesAreRead(TProtocolFactory factory) throws Exception {
    Writer message = w -> {
      w.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
      w.writeListBegin(new TList(TType.STRUCT, 2));
      w.writeStructBegin(new TStruct("s"));
      w.writeFieldStop();
      w.writeStructEnd();
      w.writeStructBegin(new TStruct("s"));
      w.writeFieldStop();
      w.writeStructEnd();
      w.writeListEnd();
      w.writeMessageEnd();
    };
    TProtocol p = framed(factory, frames(encode(factory, message), encode(factory, message)));
    for (int i = 0; i < 2; i++) {
      assertEquals("echo", p.readMessageBegin().name);
      assertEquals(2, p.readListBegin().size);
      for (int j = 0; j < 2; j++) {
        p.readStructBegin();
        assertEquals(TType.STOP, p.readFieldBegin().type);
        p.readStructEnd();
      }
      p.readListEnd();
      p.readMessageEnd();
    }
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void onAStreamALengthIsBackedByFramesReadAhead(TProtocolFactory factory) throws Exception {
    byte[] message = encode(factory, w -> {
      w.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
      w.writeBinary(ByteBuffer.wrap("a message split over three tokens".getBytes(StandardCharsets.UTF_8)));
    });
    int third = message.length / 3;
    byte[] wire = frames(Arrays.copyOfRange(message, 0, third), Arrays.copyOfRange(message, third, 2 * third),
        Arrays.copyOfRange(message, 2 * third, message.length));
    TProtocol p = new StreamTransport(wire, 1 << 20).protocol(factory);
    p.readMessageBegin();
    ByteBuffer binary = p.readBinary();
    byte[] got = new byte[binary.remaining()];
    binary.get(got);
    assertEquals("a message split over three tokens", new String(got, StandardCharsets.UTF_8));
  }

  /**
   * A large value spread over many frames is joined with a doubling buffer, so the copies stay proportional to its
   * size (one copy per frame would be quadratic), and a value handed out before stays intact.
   */
  @ParameterizedTest
  @MethodSource("protocols")
  void onAStreamAValueOverManyFramesIsJoinedInLinearTime(TProtocolFactory factory) throws Exception {
    byte[] large = new byte[200_000];
    new java.util.Random(7).nextBytes(large);
    byte[] message = encode(factory, w -> {
      w.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
      w.writeBinary(ByteBuffer.wrap("first".getBytes(StandardCharsets.UTF_8)));
      w.writeBinary(ByteBuffer.wrap(large));
    });
    byte[][] pieces = new byte[(message.length + 999) / 1000][];
    for (int i = 0; i < pieces.length; i++) {
      pieces[i] = Arrays.copyOfRange(message, i * 1000, Math.min(message.length, (i + 1) * 1000));
    }
    TProtocol p = new StreamTransport(frames(pieces), 1 << 20).protocol(factory);
    p.readMessageBegin();
    ByteBuffer first = p.readBinary();
    long before = AllocationMeter.allocatedBytes();
    ByteBuffer second = p.readBinary();
    long allocated = AllocationMeter.allocatedBytes() - before;
    byte[] got = new byte[second.remaining()];
    second.get(got);
    assertArrayEquals(large, got);
    assertEquals("first", StandardCharsets.UTF_8.decode(first).toString());
    assertTrue(allocated < 8L * large.length + SMALL, "allocated " + allocated + " bytes joining "
        + pieces.length + " frames of a " + large.length + "-byte value");
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void onAStreamALengthBeyondTheFrameLimitIsRefused(TProtocolFactory factory) throws Exception {
    byte[] message = encode(factory, w -> {
      w.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
      w.writeI32(0);
    });
    byte[] claim = encode(factory, w -> w.writeListBegin(new TList(TType.I64, 4096)));
    TProtocol p = new StreamTransport(frames(message, claim), 1024).protocol(factory);
    p.readMessageBegin();
    p.readI32();
    assertRefusedCheaply("message declares " + (factory instanceof TCompactProtocol.Factory ? 4096 : 32768)
        + " bytes, more than securethrift.limit.max.frame.size (1024 bytes)", p::readListBegin);
  }

  @ParameterizedTest
  @MethodSource("protocols")
  void onAStreamAClaimThePeerNeverSendsCostsOnlyWhatArrived(TProtocolFactory factory) throws Exception {
    byte[] message = encode(factory, w -> {
      w.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
      w.writeListBegin(new TList(TType.STRUCT, 1 << 20));
    });
    TProtocol p = new StreamTransport(frames(message, new byte[10]), 16 << 20).protocol(factory);
    p.readMessageBegin();
    long before = AllocationMeter.allocatedBytes();
    TTransportException e = assertThrows(TTransportException.class, p::readListBegin);
    long allocated = AllocationMeter.allocatedBytes() - before;
    assertEquals(TTransportException.END_OF_FILE, e.getType());
    assertTrue(allocated < SMALL, "allocated " + allocated + " bytes for a claim backed by 10 bytes");
  }

  /** Frames as a byte stream, as SASL data is; payloads taken as they are. */
  private static final class StreamTransport extends FrameTransport {
    StreamTransport(byte[] wire, int maxFrameSize) throws TTransportException {
      super(new TMemoryInputTransport(wire), PEER, TestLimits.of(maxFrameSize, 1024), Framing.STREAM, Role.SERVER);
    }

    @Override
    protected byte[] decode(byte[] payload, int length) {
      return payload;
    }

    @Override
    public void write(byte[] buf, int off, int len) {
      throw new UnsupportedOperationException("read-only test transport");
    }

    @Override
    public void flush() {
      throw new UnsupportedOperationException("read-only test transport");
    }
  }

}
