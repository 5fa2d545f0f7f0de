package io.securethrift.core.transport;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.internal.FrameTransport;
import io.securethrift.core.spi.LayerProvider.Role;
import java.util.Arrays;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Thrift's framed protocol (4-byte length, then one message), wire-compatible with libthrift's
 * {@code TFramedTransport}, but the length is checked against the configured limit before any allocation and the
 * read buffer grows only as bytes arrive. A message is written with one write and one flush, so a TLS stream below
 * sends it in full-size records.
 */
final class FramedTransport extends FrameTransport {
  private byte[] writeBuffer = new byte[1024];
  private int writeLength = 4;

  FramedTransport(TTransport stream, PeerIdentity identity, Limits limits, Role role) {
    super(stream, identity, limits, Framing.ONE_MESSAGE_PER_FRAME, role);
  }

  @Override
  protected byte[] decode(byte[] payload, int length) {
    return payload;
  }

  @Override
  public void write(byte[] buf, int off, int len) throws TTransportException {
    int needed = writeLength + len;
    if (needed - 4 > maxFrameSize() || needed < 0) {
      writeLength = 4;
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "outgoing message is larger than "
          + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key() + " (" + maxFrameSize() + " bytes); the peer would refuse it");
    }
    if (needed > writeBuffer.length) {
      writeBuffer = Arrays.copyOf(writeBuffer, (int) Math.min(Math.max(2L * writeBuffer.length, needed),
          maxFrameSize() + 4L));
    }
    System.arraycopy(buf, off, writeBuffer, writeLength, len);
    writeLength = needed;
  }

  @Override
  public void flush() throws TTransportException {
    int payload = writeLength - 4;
    putLength(writeBuffer, 0, payload);
    writeLength = 4;
    stream().write(writeBuffer, 0, payload + 4);
    stream().flush();
  }
}
