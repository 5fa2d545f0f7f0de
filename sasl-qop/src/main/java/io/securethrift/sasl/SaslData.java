package io.securethrift.sasl;

import io.securethrift.core.Limits;
import io.securethrift.core.PeerIdentity;
import io.securethrift.core.PeerText;
import io.securethrift.core.spi.SaslDataCodec;
import java.util.OptionalInt;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransportException;

/**
 * What the data phase does with each frame after a negotiation, on either side: unwraps and wraps tokens under
 * {@code auth-int} and {@code auth-conf}, and cuts outgoing bytes into tokens of at most the negotiated raw send size,
 * which C (Cyrus) and Python peers enforce. {@link SaslTransport} reads and writes frames with it on a stream;
 * non-blocking servers get it through {@link SaslDataCodec} and frame the bytes themselves.
 */
final class SaslData implements SaslDataCodec {
  private final SaslEndpoint sasl;
  private final PeerIdentity identity;
  private final boolean wraps;
  private final int chunkSize;

  SaslData(SaslEndpoint sasl, PeerIdentity identity, Limits limits) {
    this.sasl = sasl;
    this.identity = identity;
    this.wraps = identity.qop().orElseThrow().wrapsMessages();
    this.chunkSize = wraps ? rawSendSize(sasl, limits.maxFrameSize()) : limits.maxFrameSize();
  }

  /**
   * The mechanism's raw send size (what the peer can take, minus wrapping overhead); bounded by our own frame
   * limit with room for that overhead, since the peer probably runs the same limit. Both negotiations refuse a size
   * of 0 or less ({@link QopLists#bufferRefusal}), so any size stated here is honoured.
   */
  private static int rawSendSize(SaslEndpoint sasl, int maxFrameSize) {
    int limit = maxFrameSize - 1024;
    OptionalInt negotiated = QopLists.rawSendSize(sasl);
    if (negotiated.isPresent() && negotiated.getAsInt() <= 0) {
      throw new IllegalStateException("negotiation accepted a raw send size of " + negotiated.getAsInt());
    }
    return negotiated.isPresent() ? Math.min(negotiated.getAsInt(), limit) : limit;
  }

  @Override
  public PeerIdentity identity() {
    return identity;
  }

  @Override
  public boolean wraps() {
    return wraps;
  }

  @Override
  public int chunkSize() {
    return chunkSize;
  }

  @Override
  public byte[] unwrap(byte[] payload, int length) throws TTransportException {
    if (!wraps) {
      return payload;
    }
    try {
      return sasl.unwrap(payload, 0, length);
    } catch (SaslException | RuntimeException e) {
      // The JDK's DIGEST-MD5 unwrap throws NegativeArraySizeException or ArrayIndexOutOfBoundsException on tokens
      // shorter than its trailer: those are forged frames too.
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "SASL " + identity.qop().orElseThrow()
          + " frame from " + identity.remoteAddress() + " failed its integrity check: " + PeerText.describe(e),
          Describe.loggable(e));
    }
  }

  @Override
  public byte[] wrap(byte[] plain, int offset, int length) throws TTransportException {
    try {
      return sasl.wrap(plain, offset, length);
    } catch (SaslException e) {
      throw new TTransportException(TTransportException.UNKNOWN, "cannot SASL-wrap an outgoing message: "
          + e.getMessage(), e);
    }
  }

  @Override
  public void dispose() {
    sasl.dispose();
  }
}
