package io.securethrift.sasl;

/** The status byte that starts every Thrift SASL negotiation message, with the codes Thrift's spec assigns. */
enum NegotiationStatus {
  START(1),
  OK(2),
  BAD(3),
  ERROR(4),
  COMPLETE(5);

  private final byte code;

  NegotiationStatus(int code) {
    this.code = (byte) code;
  }

  byte code() {
    return code;
  }

  /** The status for a code, or null for a byte no Thrift peer sends. */
  static NegotiationStatus of(byte code) {
    for (NegotiationStatus s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return null;
  }

  /** Whether the message reports that the sender gave up (its payload is a reason). */
  boolean isFailure() {
    return this == BAD || this == ERROR;
  }
}
