package io.securethrift.ingest;

import io.securethrift.ingest.thrift.KeyValue;
import io.securethrift.ingest.workload.Entry;
import java.nio.ByteBuffer;

/** Converts between the workload's entries and the ingest service's Thrift key/values. */
public final class KeyValues {
  private KeyValues() {}

  public static KeyValue toKeyValue(Entry e) {
    return new KeyValue(ByteBuffer.wrap(e.row()), ByteBuffer.wrap(e.family()), ByteBuffer.wrap(e.qualifier()),
        ByteBuffer.wrap(e.visibility()), ByteBuffer.wrap(e.value()));
  }

  public static Entry toEntry(KeyValue kv) {
    return new Entry(bytes(kv.row), bytes(kv.family), bytes(kv.qualifier), bytes(kv.visibility), bytes(kv.value));
  }

  /** The bytes of a Thrift binary field, without a copy when the buffer is a whole array. */
  static byte[] bytes(ByteBuffer buffer) {
    if (buffer == null) {
      return new byte[0];
    }
    if (buffer.hasArray() && buffer.arrayOffset() == 0 && buffer.position() == 0
        && buffer.remaining() == buffer.array().length) {
      return buffer.array();
    }
    byte[] copy = new byte[buffer.remaining()];
    buffer.duplicate().get(copy);
    return copy;
  }
}
