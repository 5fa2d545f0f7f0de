package io.securethrift.sasl;

/** The 4-byte big-endian lengths of the Thrift SASL protocol, written in place. */
final class BigEndian {
  private BigEndian() {}

  static void putInt(byte[] into, int offset, int value) {
    into[offset] = (byte) (value >>> 24);
    into[offset + 1] = (byte) (value >>> 16);
    into[offset + 2] = (byte) (value >>> 8);
    into[offset + 3] = (byte) value;
  }
}
