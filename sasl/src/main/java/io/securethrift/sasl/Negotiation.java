package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.FrameReader;
import java.nio.charset.StandardCharsets;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Reads and writes Thrift SASL negotiation messages: one status byte, a 4-byte big-endian length, the payload. The
 * length is checked against {@code securethrift.limit.max.negotiation.message.size} before anything is allocated,
 * because these bytes come from a peer nobody has authenticated yet.
 */
final class Negotiation {
  private final TTransport stream;
  private final FrameReader reader;
  private final byte[] status = new byte[1];

  /** One received message; {@code payload} is exactly as long as the peer declared. */
  static final class Message {
    private final NegotiationStatus status;
    private final byte[] payload;

    Message(NegotiationStatus status, byte[] payload) {
      this.status = status;
      this.payload = payload;
    }

    NegotiationStatus status() {
      return status;
    }

    byte[] payload() {
      return payload;
    }
  }

  Negotiation(TTransport stream, Limits limits) {
    this.stream = stream;
    this.reader = new FrameReader(limits.maxNegotiationMessageSize(),
        ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE.key());
  }

  /**
   * Reads the next message.
   *
   * @throws PeerFailure if the peer sent BAD or ERROR
   */
  Message receive() throws TTransportException {
    if (stream.read(status, 0, 1) != 1) {
      throw new TTransportException(TTransportException.END_OF_FILE, "connection closed during SASL negotiation");
    }
    checkStatus(status[0]);
    int length = reader.readLength(stream);
    return message(status[0], length == 0 ? new byte[0] : reader.readPayload(stream, length));
  }

  /**
   * A received message from its status byte and payload, for servers that read the header and payload themselves.
   *
   * @throws PeerFailure if the peer sent BAD or ERROR
   */
  static Message message(byte status, byte[] payload) throws TTransportException {
    NegotiationStatus s = checkStatus(status);
    if (s.isFailure()) {
      throw new PeerFailure(PeerText.sanitize(new String(payload, StandardCharsets.UTF_8)));
    }
    return new Message(s, payload);
  }

  /** Refuses a status byte no Thrift peer sends before its length is read, so garbage is named as such. */
  private static NegotiationStatus checkStatus(byte status) throws TTransportException {
    NegotiationStatus s = NegotiationStatus.of(status);
    if (s == null) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "invalid SASL negotiation status "
          + (status & 0xff) + "; the peer is not speaking the Thrift SASL protocol");
    }
    return s;
  }

  /** Writes one message without flushing; the client's START and first response must go out together. */
  void send(NegotiationStatus s, byte[] payload) throws TTransportException {
    byte[] bytes = payload == null ? new byte[0] : payload;
    byte[] message = new byte[5 + bytes.length];
    message[0] = s.code();
    BigEndian.putInt(message, 1, bytes.length);
    System.arraycopy(bytes, 0, message, 5, bytes.length);
    stream.write(message);
  }

  void sendAndFlush(NegotiationStatus s, byte[] payload) throws TTransportException {
    send(s, payload);
    stream.flush();
  }

  /**
   * Tells the peer why we give up (BAD or ERROR with a UTF-8 reason), best effort: the connection is closed next
   * whatever happens, and the local error is what the caller reports.
   */
  void reportFailure(NegotiationStatus s, String reason) {
    try {
      sendAndFlush(s, reason.getBytes(StandardCharsets.UTF_8));
    } catch (TTransportException ignored) {
      // The peer may already be gone; our own exception carries the reason.
    }
  }
}
