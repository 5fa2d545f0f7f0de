package io.securethrift.ingest;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.securethrift.ingest.thrift.KeyValue;
import io.securethrift.ingest.workload.Entry;
import java.nio.ByteBuffer;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.jupiter.api.Test;

/** Entries to the ingest service's key/values and back, through Thrift's own encoding as on the wire. */
class KeyValuesTest {
  private static final Entry ENTRY = new Entry("0000000000000001".getBytes(US_ASCII), "0001".getBytes(US_ASCII),
      "0002".getBytes(US_ASCII), "A&B".getBytes(US_ASCII), "value".getBytes(US_ASCII));

  @Test
  void anEntrySurvivesTheThriftEncoding() throws Exception {
    byte[] wire = new TSerializer(new TCompactProtocol.Factory()).serialize(KeyValues.toKeyValue(ENTRY));
    KeyValue read = new KeyValue();
    new TDeserializer(new TCompactProtocol.Factory()).deserialize(read, wire);
    assertEquals(ENTRY, KeyValues.toEntry(read));
  }

  @Test
  void aWholeArrayIsTakenAsItIsAndASliceIsCopied() {
    byte[] whole = {1, 2, 3};
    assertSame(whole, KeyValues.bytes(ByteBuffer.wrap(whole)));
    byte[] frame = {9, 9, 1, 2, 3, 9};
    byte[] slice = KeyValues.bytes(ByteBuffer.wrap(frame, 2, 3));
    assertArrayEquals(new byte[] {1, 2, 3}, slice);
    assertNotSame(frame, slice);
    ByteBuffer offset = ByteBuffer.wrap(frame, 1, 5).slice();
    assertArrayEquals(new byte[] {9, 1, 2, 3, 9}, KeyValues.bytes(offset), "an array offset is honoured");
    ByteBuffer direct = ByteBuffer.allocateDirect(2).put((byte) 4).put((byte) 5).flip();
    assertArrayEquals(new byte[] {4, 5}, KeyValues.bytes(direct));
    assertEquals(0, direct.position(), "reading does not move the buffer");
  }

  @Test
  void aMissingFieldIsEmpty() {
    KeyValue sparse = new KeyValue();
    sparse.setRow("r".getBytes(US_ASCII));
    Entry e = KeyValues.toEntry(sparse);
    assertArrayEquals("r".getBytes(US_ASCII), e.row());
    assertEquals(0, e.family().length);
    assertEquals(0, e.visibility().length);
    assertEquals(0, e.value().length);
  }
}
