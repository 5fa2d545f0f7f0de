package io.securethrift.netty;

import io.netty.buffer.ByteBuf;
import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.internal.FrameReader;
import org.apache.thrift.TException;

/**
 * How a frame's header is laid out and checked: Thrift's framing (a 4-byte length) here, and Thrift SASL's
 * negotiation messages (a status byte, then the length) in {@link SaslNegotiation}. The length is always the header's
 * last four bytes: that is all {@link FrameCodec} reads of a header whose turn has not come.
 */
interface FrameFormat {
  int headerLength();

  /** The largest payload a header may declare. */
  int maxLength();

  /**
   * The payload length declared by the header at {@code in}'s reader index, checked against {@link #maxLength()}.
   *
   * @throws TException refusing the header: the connection closes
   */
  int payloadLength(ByteBuf in) throws TException;

  /** Thrift's framing, limited by {@code securethrift.limit.max.frame.size}. */
  static FrameFormat thrift(Limits limits) {
    FrameReader limit = new FrameReader(limits.maxFrameSize(), ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
    return new FrameFormat() {
      @Override
      public int headerLength() {
        return 4;
      }

      @Override
      public int maxLength() {
        return limits.maxFrameSize();
      }

      @Override
      public int payloadLength(ByteBuf in) throws TException {
        return limit.checkLength(in.getInt(in.readerIndex()));
      }
    };
  }
}
