package io.securethrift.core.internal;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.spi.LayerProvider.Role;
import io.securethrift.core.transport.SecuredTransport;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A secured transport that exchanges length-prefixed frames over a stream: the reading half (bounded frames via
 * {@link FrameReader}, the buffer protocols read from directly, per-field size checks) and the bookkeeping every
 * such transport repeats. Subclasses say how a received frame becomes plain bytes (Thrift framing: as is; SASL:
 * unwrapped) and how writes become frames. Not thread-safe, like every Thrift transport.
 *
 * <p>Every length a protocol reads (a string, a binary, a container's size times its smallest element) must be
 * backed by bytes already received: with {@link Framing#ONE_MESSAGE_PER_FRAME} by the bytes left in the current frame,
 * even when none are left, and a message may not run on into the next frame; with {@link Framing#STREAM} (SASL,
 * where a message may span several tokens) by frames read ahead, at most {@code securethrift.limit.max.frame.size}
 * in all. A peer that declares more is refused before anything is allocated for it: one WARN naming the peer and the
 * claim, the connection closed.
 *
 * <p>Not API: {@code io.securethrift.core.internal} is shared between securethrift's own modules (the SASL module's
 * transport is one) and may change in any release.
 */
public abstract class FrameTransport extends SecuredTransport {
  private static final Logger LOG = LoggerFactory.getLogger(FrameTransport.class);

  private final TTransport stream;
  private final Role role;
  private PeerIdentity identity;
  private final int maxFrameSize;
  private final FrameReader reader;
  private final TConfiguration configuration;
  private final Framing framing;
  private static final byte[] EMPTY = new byte[0];
  private byte[] in = EMPTY;
  private int inPosition;
  private int inLength;
  /** Set by a frame-bounded protocol between a message's begin and end; see {@link #messageBegins()}. */
  private boolean inMessage;
  private boolean frameReadInMessage;

  /** How messages map onto frames, which decides how far a declared length may reach. */
  public enum Framing {
    /** Thrift framing: every message is exactly one frame, so nothing it declares reaches past that frame. */
    ONE_MESSAGE_PER_FRAME,
    /** SASL data: frames are a byte stream and a message may span several of them. */
    STREAM
  }

  /**
   * @param role which end reads: a server's refusals are logged, rate-limited, by its identity processor; a client's
   *     here, since only the client's own connections can reach it
   */
  protected FrameTransport(TTransport stream, PeerIdentity identity, Limits limits, Framing framing, Role role) {
    this.stream = stream;
    this.role = role;
    this.identity = identity;
    this.framing = framing;
    this.maxFrameSize = limits.maxFrameSize();
    this.reader = new FrameReader(maxFrameSize, ConfigProperty.LIMIT_MAX_FRAME_SIZE.key());
    this.configuration = new TConfiguration(maxFrameSize, maxFrameSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
  }

  /**
   * Turns a received frame's payload into plain bytes; an empty result is skipped. The array is the frame's own and
   * may be returned as is.
   */
  protected abstract byte[] decode(byte[] payload, int length) throws TTransportException;

  /**
   * Decodes a received frame's payload straight into {@code out} at {@code outOffset}, where at least {@code length}
   * bytes are free, and returns how many plain bytes it wrote there; or -1 when this transport's plain bytes come only
   * from {@link #decode}. {@code out} is the payload itself (offset 0) or the read buffer past its unread bytes. A
   * transport whose decoding is one cipher pass (AES-GCM records) overrides it, so the plain bytes land where the
   * protocol reads them instead of in a new array that is copied there. Bytes past the returned count, and whatever a
   * call that throws wrote, are never read.
   */
  protected int decodeInto(byte[] payload, int length, byte[] out, int outOffset) throws TTransportException {
    return -1;
  }

  /** The underlying stream, for subclasses' writes. */
  protected final TTransport stream() {
    return stream;
  }

  protected final int maxFrameSize() {
    return maxFrameSize;
  }

  @Override
  public final PeerIdentity peerIdentity() {
    return identity;
  }

  /** Replaces the identity once the data phase has established more (the SASL privacy after its key exchange). */
  protected final void peerIdentity(PeerIdentity updated) {
    this.identity = updated;
  }

  @Override
  public final boolean isOpen() {
    return stream.isOpen();
  }

  @Override
  public final void open() throws TTransportException {
    if (!stream.isOpen()) {
      throw new TTransportException(TTransportException.NOT_OPEN, "a secured transport is opened by its factory");
    }
  }

  @Override
  public void close() {
    stream.close();
  }

  @Override
  public final int read(byte[] buf, int off, int len) throws TTransportException {
    if (inPosition == inLength) {
      nextFrame();
    }
    int n = Math.min(len, inLength - inPosition);
    System.arraycopy(in, inPosition, buf, off, n);
    inPosition += n;
    return n;
  }

  /** Reads the next frame with data in it unless unread bytes are buffered; blocks until it has arrived. */
  protected final void fill() throws TTransportException {
    if (inPosition == inLength) {
      nextFrame();
    }
  }

  private void nextFrame() throws TTransportException {
    if (framing == Framing.ONE_MESSAGE_PER_FRAME && inMessage && frameReadInMessage) {
      throw refuse("message runs past the end of its frame");
    }
    try {
      byte[] payload;
      int plain;
      // Frames that decode to nothing (empty ones, a key exchange) are skipped.
      do {
        int length = reader.readFrame(stream);
        payload = reader.buffer();
        plain = length == 0 ? 0 : decodeInto(payload, length, payload, 0);
        if (plain < 0) {
          payload = decode(payload, length);
          plain = payload.length;
        }
      } while (plain == 0);
      frameReadInMessage = inMessage;
      in = payload;
      inLength = plain;
      inPosition = 0;
    } catch (TTransportException e) {
      throw refuseCorrupted(e);
    }
  }

  /** A frame the peer corrupted (too long, failing its check) is refused; other failures pass as they are. */
  private TTransportException refuseCorrupted(TTransportException e) {
    return e.getType() == TTransportException.CORRUPTED_DATA ? refuse(PeerText.messageOf(e)) : e;
  }

  /**
   * Refuses what the peer sent with a {@link DataRefusal}, which ends the connection. On a server the identity
   * processor logs it and closes the transport (in that order, so a peer that sees the close finds the line written);
   * a client logs it and closes here.
   */
  private TTransportException refuse(String reason) {
    if (role == Role.CLIENT) {
      LOG.warn("closing connection with {}: {}", identity.remoteAddress(), reason);
      close();
    }
    return new DataRefusal(String.valueOf(identity.remoteAddress()), reason);
  }

  @Override
  public final byte[] getBuffer() {
    return in;
  }

  @Override
  public final int getBufferPosition() {
    return inPosition;
  }

  @Override
  public final int getBytesRemainingInBuffer() {
    return inLength - inPosition;
  }

  @Override
  public final void consumeBuffer(int len) {
    inPosition += len;
  }

  @Override
  public final TConfiguration getConfiguration() {
    return configuration;
  }

  @Override
  public final void updateKnownMessageSize(long size) {
    // Frames are bounded one by one as they arrive; nothing more to track.
  }

  /**
   * Protocols call this before allocating a string, binary or container that needs {@code numBytes}: the claim must
   * be backed by bytes already received (see the class comment), so the allocation that follows is never larger than
   * what the peer really sent.
   */
  @Override
  public final void checkReadBytesAvailable(long numBytes) throws TTransportException {
    int remaining = inLength - inPosition;
    if (numBytes < 0) {
      // libthrift 0.17's compact readBinary passes a negative length on unchecked.
      throw refuse("message declares a negative length (" + numBytes + ")");
    }
    if (numBytes <= remaining) {
      return;
    }
    if (framing == Framing.ONE_MESSAGE_PER_FRAME) {
      throw refuse("message declares " + numBytes + " bytes but only " + remaining + " remain in its frame");
    }
    if (numBytes > maxFrameSize) {
      throw refuse("message declares " + numBytes + " bytes, more than " + ConfigProperty.LIMIT_MAX_FRAME_SIZE.key()
          + " (" + maxFrameSize + " bytes)");
    }
    readAhead((int) numBytes);
  }

  /**
   * Appends following frames to the unread rest of the current one until {@code needed} bytes are buffered. Each
   * frame is itself bounded and grows only as bytes arrive, and {@code needed} is within the frame limit, so the
   * buffer never outgrows twice what the peer sent. The joined buffer doubles, so a message of many frames (a large
   * SASL message in 64 KiB tokens or records) is copied a bounded number of times instead of once per frame. Bytes
   * go only into a new array or past the end of the buffered ones, which keeps buffers handed out earlier intact.
   */
  private void readAhead(int needed) throws TTransportException {
    try {
      while (inLength - inPosition < needed) {
        int length = reader.readFrame(stream);
        if (length == 0) {
          continue;
        }
        reserve(length, needed);
        int plain = decodeInto(reader.buffer(), length, in, inLength);
        if (plain < 0) {
          byte[] next = decode(reader.buffer(), length);
          reserve(next.length, needed);
          System.arraycopy(next, 0, in, inLength, next.length);
          plain = next.length;
        }
        inLength += plain;
      }
    } catch (TTransportException e) {
      throw refuseCorrupted(e);
    }
  }

  /** Makes room for {@code count} bytes after the buffered ones, moving the unread ones into a new, larger array. */
  private void reserve(int count, int needed) {
    if (inLength + count > in.length) {
      int unread = inLength - inPosition;
      int total = unread + count;
      byte[] joined = new byte[(int) Math.max(total, Math.min(needed, 2L * total))];
      System.arraycopy(in, inPosition, joined, 0, unread);
      in = joined;
      inLength = unread;
      inPosition = 0;
    }
  }

  /**
   * A frame-bounded protocol calls this at {@code readMessageBegin}: from here to {@link #messageEnds()}, a transport
   * with one message per frame refuses to read a second frame.
   */
  @Override
  protected final void messageBegins() {
    inMessage = true;
    frameReadInMessage = inPosition < inLength;
  }

  /**
   * Also lets go of the message's frame once every byte of it has been read: a connection waiting for its next call
   * (or blocked writing its reply to a peer that does not read) then holds no copy of its last request, which for
   * large calls on many connections is most of a server's memory.
   */
  @Override
  protected final void messageEnds() {
    inMessage = false;
    if (inPosition == inLength) {
      in = EMPTY;
      inPosition = 0;
      inLength = 0;
      reader.release();
    }
  }

  /** Sizes are enforced per frame; see {@link #checkReadBytesAvailable}. */
  public final void resetMessageSizeAndConsumedBytes(long newSize) {
    // Declared without @Override: libthrift added this abstract method in 0.25 and 0.17 lacks it.
  }

  /** Writes a 4-byte big-endian length into {@code buf} at {@code offset}. */
  protected static void putLength(byte[] buf, int offset, int length) {
    buf[offset] = (byte) (length >>> 24);
    buf[offset + 1] = (byte) (length >>> 16);
    buf[offset + 2] = (byte) (length >>> 8);
    buf[offset + 3] = (byte) length;
  }
}
