package io.securethrift.netty;

import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.spi.SaslDataCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolFactory;

/**
 * The SASL data layer of one authenticated connection: each received frame's token is unwrapped (taken as it is at
 * {@code auth}) into a stream of plain bytes that carries no framing of its own, since a token may hold part of a
 * message or several, and the {@link MessageScanner} cuts the stream into messages; a reply goes out cut into frames
 * of at most the negotiated size, each wrapped when the QOP says so.
 *
 * <p>Not a handler: {@link FrameCodec} unwraps with it on the event loop and {@link CallDispatcher} wraps with it on
 * the thread that ran the call, so a SASL call passes the same two handlers as any other. Tokens are unwrapped and
 * wrapped one at a time, in the order they travel: the codec takes no frame while a call runs.
 */
final class SaslStream {
  private static final byte[] EMPTY = new byte[0];

  private final SaslDataCodec codec;
  private final MessageScanner scanner;
  private final TProtocolFactory protocolFactory;
  /** The caller of the next message; after a privacy key exchange, with the privacy in use. */
  private PeerIdentity identity;
  /** Unwrapped bytes not yet dispatched. */
  private byte[] plain = EMPTY;
  private int plainLength;

  SaslStream(SaslDataCodec codec, ServerContext server) {
    this.codec = codec;
    this.identity = codec.identity();
    this.scanner = new MessageScanner(codec.identity(), server.limits().maxFrameSize());
    this.protocolFactory = server.protocolFactory();
  }

  /** Who sends the messages; read on the event loop when one is dispatched. */
  PeerIdentity identity() {
    return identity;
  }

  /**
   * Adds one frame's token to the stream. Returns the payload of a frame to send at once, before anything else, when
   * the token was a privacy key exchange; null otherwise.
   *
   * @throws TException if the token fails its check: the connection closes
   */
  byte[] unwrap(byte[] payload) throws TException {
    byte[] unwrapped = payload.length == 0 ? EMPTY : codec.unwrap(payload, payload.length);
    byte[] answer = codec.takeReply();
    if (answer != null) {
      // The client sends no call before the answer arrives, so no call is in flight to be given the old identity.
      identity = codec.identity();
    }
    if (plainLength + unwrapped.length > plain.length) {
      plain = Arrays.copyOf(plain, Math.max(plainLength + unwrapped.length, 2 * plain.length));
    }
    System.arraycopy(unwrapped, 0, plain, plainLength, unwrapped.length);
    plainLength += unwrapped.length;
    return answer;
  }

  /** Whether unwrapped bytes wait: they may hold a whole message. */
  boolean hasPlain() {
    return plainLength > 0;
  }

  /**
   * The first whole message of the stream, framed for core's framed transport (a 4-byte length first), or null if
   * none is whole yet.
   *
   * @throws TException if the bytes are no message of the protocol, or declare one over the frame limit
   */
  byte[] nextMessage() throws TException {
    int length = scanner.firstMessage(protocolFactory, plain, plainLength);
    if (length < 0) {
      return null;
    }
    byte[] frame = new byte[4 + length];
    frame[0] = (byte) (length >>> 24);
    frame[1] = (byte) (length >>> 16);
    frame[2] = (byte) (length >>> 8);
    frame[3] = (byte) length;
    System.arraycopy(plain, 0, frame, 4, length);
    System.arraycopy(plain, length, plain, 0, plainLength - length);
    plainLength -= length;
    return frame;
  }

  /**
   * A reply as wire frames: its payload cut into frames of at most the negotiated size, each wrapped when the QOP says
   * so (a Thrift-framed reply goes as written, see {@link MemoryStream#writtenChunks}). Runs on the thread that ran
   * the call, in call order, one call at a time.
   */
  List<byte[]> replyFrames(byte[] framed) throws TException {
    if (framed.length == 0) {
      return List.of();
    }
    List<byte[]> frames = new ArrayList<>();
    for (int offset = 4; offset < framed.length; offset += codec.chunkSize()) {
      int length = Math.min(codec.chunkSize(), framed.length - offset);
      byte[] payload = codec.wraps() ? codec.wrap(framed, offset, length) : Arrays.copyOfRange(framed, offset,
          offset + length);
      frames.add(lengthPrefix(payload.length));
      frames.add(payload);
    }
    return frames;
  }

  static byte[] lengthPrefix(int length) {
    return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
  }

  /** Releases the mechanism's keys; called once, when nothing uses them any more. */
  void dispose() {
    codec.dispose();
  }
}
