package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.identity.PeerIdentity;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.spi.SaslDataCodec;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.OptionalInt;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransportException;

/**
 * What the data phase does with each frame after a negotiation, on either side: unwraps and wraps tokens under
 * {@code auth-int} and {@code auth-conf}, and cuts outgoing bytes into tokens of at most the negotiated raw send size,
 * which C (Cyrus) and Python peers enforce. {@link SaslTransport} reads and writes frames with it on a stream;
 * non-blocking servers get it through {@link SaslDataCodec} and frame the bytes themselves.
 *
 * <p>With AES-GCM privacy ({@code securethrift.sasl.privacy}, docs/sasl-privacy.md) frames are {@link GcmRecords}
 * instead of tokens. securethrift's GSSAPI mechanism negotiates them itself, so both sides start with them; over
 * DIGEST-MD5 a client starts once its hello exchange is done, and a server that accepts the exchange looks at the
 * first frame, answers a hello through {@link #takeReply()} and switches.
 */
final class SaslData implements SaslDataCodec {
  private static final byte[] EMPTY = new byte[0];

  private final SaslEndpoint sasl;
  private final boolean wraps;
  private final int tokenSize;
  /** Plain bytes per outgoing AES-GCM record. */
  private int recordSize;
  /** The largest incoming AES-GCM record, tag included. */
  private int maxRecord;
  /** Where the AES-GCM cipher comes from; null means the JVM's provider list. */
  private final Provider provider;
  private PeerIdentity identity;
  /** A server's privacy while its first frame may still be a hello; null once decided, and on clients. */
  private SaslPrivacy awaitingHello;
  /** The identity a server takes on once the exchange is done. */
  private final PeerIdentity gcmIdentity;
  private GcmRecords sealer;
  private GcmRecords opener;
  private byte[] reply;

  private SaslData(SaslEndpoint sasl, PeerIdentity identity, PeerIdentity gcmIdentity, Limits limits,
      Provider provider) {
    this.sasl = sasl;
    this.provider = provider;
    this.identity = identity;
    this.gcmIdentity = gcmIdentity;
    this.wraps = identity.qop().orElseThrow().wrapsMessages();
    this.tokenSize = wraps ? rawSendSize(sasl, limits.maxFrameSize()) : limits.maxFrameSize();
    this.recordSize = Math.min(GcmRecords.RECORD, limits.maxFrameSize() - GcmRecords.TAG);
    this.maxRecord = recordSize + GcmRecords.TAG;
  }

  /** A client's data phase: GCM records under {@code keys} from a completed exchange, else the mechanism's wrap. */
  static SaslData client(SaslEndpoint sasl, PeerIdentity identity, Limits limits, PrivacyExchange.Keys keys,
      Provider provider) {
    SaslData data = new SaslData(sasl, identity, identity, limits, provider);
    if (keys != null) {
      data.start(keys.keyLength(), keys.clientToServer, keys.serverToClient);
    } else {
      data.startInBand(limits);
    }
    return data;
  }

  /**
   * A server's data phase. With {@code privacy} other than {@code gss} at {@code auth-conf}, the first frame decides:
   * a hello switches to {@code gcmIdentity} and GCM records; anything else is served with the mechanism's wrap under
   * {@code aes-gcm-preferred} and refused under {@code aes-gcm}.
   */
  static SaslData server(SaslEndpoint sasl, PeerIdentity gssIdentity, PeerIdentity gcmIdentity, Limits limits,
      SaslPrivacy privacy, Provider provider) {
    boolean exchange = privacy.speaksAesGcm() && gssIdentity.qop().orElseThrow() == QualityOfProtection.AUTH_CONF
        && !sasl.negotiatesPrivacy();
    boolean gcm = privacy == SaslPrivacy.AES_GCM || sasl.aesGcm() != null;
    SaslData data = new SaslData(sasl, gcm ? gcmIdentity : gssIdentity, gcmIdentity, limits, provider);
    data.awaitingHello = exchange ? privacy : null;
    data.startInBand(limits);
    return data;
  }

  /**
   * AES-GCM records that the mechanism itself negotiated (securethrift's GSSAPI), if it did. Outgoing records are cut
   * to the peer's max buffer like tokens; incoming ones are bounded by the frame limit alone, as tokens are, since
   * libthrift's transports wrap each message whole whatever the max buffer says.
   */
  private void startInBand(Limits limits) {
    GssLayer gcm = sasl.aesGcm();
    if (gcm != null) {
      sealer = gcm.sealer();
      opener = gcm.opener();
      recordSize = tokenSize;
      maxRecord = limits.maxFrameSize();
    }
  }

  private void start(int keyLength, byte[] sealing, byte[] opening) {
    sealer = GcmRecords.sealer(provider, keyLength, sealing, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
    opener = GcmRecords.opener(provider, keyLength, opening, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES);
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

  /** Whether this server's next frame may still be a key exchange that changes {@link #identity()}. */
  boolean awaitingHello() {
    return awaitingHello != null;
  }

  /** Whether frames are AES-GCM records now. */
  boolean sealsRecords() {
    return sealer != null;
  }

  @Override
  public int chunkSize() {
    return sealer != null ? recordSize : tokenSize;
  }

  @Override
  public byte[] unwrap(byte[] payload, int length) throws TTransportException {
    if (opener != null) {
      return open(payload, length);
    }
    if (!wraps) {
      return payload;
    }
    byte[] plain = unwrapToken(payload, length);
    if (awaitingHello == null) {
      return plain;
    }
    SaslPrivacy privacy = awaitingHello;
    awaitingHello = null;
    return firstFrame(plain, privacy);
  }

  private byte[] unwrapToken(byte[] payload, int length) throws TTransportException {
    try {
      byte[] plain = sasl.unwrap(payload, 0, length);
      if (plain.length == 0 && identity.mechanism().flatMap(MechanismSupport::named)
          .filter(m -> m.emptyUnwrapIsForgery(length)).isPresent()) {
        throw new SaslException(identity.mechanism().get() + " token of " + length + " bytes failed its MAC");
      }
      return plain;
    } catch (SaslException | RuntimeException e) {
      // The JDK's DIGEST-MD5 unwrap throws NegativeArraySizeException or ArrayIndexOutOfBoundsException on tokens
      // shorter than its trailer: those are forged frames too.
      throw new EscapedTransportException(TTransportException.CORRUPTED_DATA, "SASL "
          + identity.qop().orElseThrow() + " frame from " + identity.remoteAddress() + " failed its integrity check: "
          + PeerText.describe(e), Describe.loggable(e));
    }
  }

  /** A server's first frame: a hello to answer, or data a client without the exchange sent. */
  private byte[] firstFrame(byte[] plain, SaslPrivacy privacy) throws TTransportException {
    String key = ConfigProperty.SASL_PRIVACY.key();
    if (!PrivacyExchange.isExchange(plain, plain.length)) {
      if (privacy == SaslPrivacy.AES_GCM) {
        throw new TTransportException(TTransportException.CORRUPTED_DATA, "the client from "
            + identity.remoteAddress() + " sent data without the key exchange this server requires (" + key
            + "=aes-gcm): it is a stock Thrift SASL peer or runs " + key + "=gss; set " + key + "=aes-gcm-preferred"
            + " on this server to serve such clients with gss, or aes-gcm on the client");
      }
      return plain;
    }
    PrivacyExchange.Answer answer = PrivacyExchange.answer(plain, plain.length);
    if (answer.keys == null && privacy == SaslPrivacy.AES_GCM) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "the client from " + identity.remoteAddress()
          + " offered no cipher or protocol version this server speaks, and " + key + "=aes-gcm requires one");
    }
    reply = wrap(answer.message, 0, answer.message.length);
    if (answer.keys != null) {
      start(answer.keys.keyLength(), answer.keys.serverToClient, answer.keys.clientToServer);
      identity = gcmIdentity;
    }
    return EMPTY;
  }

  private byte[] open(byte[] record, int length) throws TTransportException {
    checkRecordLength(length);
    byte[] plain = new byte[Math.max(0, GcmRecords.plainLength(length))];
    open(record, length, plain, 0);
    return plain;
  }

  /**
   * Once frames are AES-GCM records, opens one into {@code out} at {@code outOffset} (room for {@code length} bytes;
   * {@code out} may be {@code record} itself at 0) and returns the plain count; -1 before that, when frames go
   * through {@link #unwrap}.
   */
  int open(byte[] record, int length, byte[] out, int outOffset) throws TTransportException {
    if (opener == null) {
      return -1;
    }
    checkRecordLength(length);
    try {
      return opener.open(record, length, out, outOffset);
    } catch (GeneralSecurityException e) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "AES-GCM record of " + length + " bytes from "
          + identity.remoteAddress() + " failed authentication (forged, altered, replayed, reordered or cut short)",
          e);
    }
  }

  private void checkRecordLength(int length) throws TTransportException {
    if (length > maxRecord) {
      throw new TTransportException(TTransportException.CORRUPTED_DATA, "AES-GCM record of " + length + " bytes from "
          + identity.remoteAddress() + " is larger than the " + maxRecord + " bytes a record may take");
    }
  }

  @Override
  public byte[] takeReply() {
    byte[] r = reply;
    reply = null;
    return r;
  }

  @Override
  public byte[] wrap(byte[] plain, int offset, int length) throws TTransportException {
    if (sealer != null) {
      byte[] record = new byte[GcmRecords.sealedLength(length)];
      seal(plain, offset, length, record, 0);
      return record;
    }
    try {
      return sasl.wrap(plain, offset, length);
    } catch (SaslException e) {
      throw new TTransportException(TTransportException.UNKNOWN, "cannot SASL-wrap an outgoing message: "
          + e.getMessage(), e);
    }
  }

  /**
   * Seals at most {@link #chunkSize()} plain bytes into {@code out} at {@code outOffset} (room for
   * {@link GcmRecords#sealedLength}) and returns the sealed length; only once {@link #sealsRecords()}.
   */
  int seal(byte[] plain, int offset, int length, byte[] out, int outOffset) throws TTransportException {
    try {
      return sealer.seal(plain, offset, length, out, outOffset);
    } catch (GeneralSecurityException e) {
      throw new TTransportException(TTransportException.UNKNOWN, "cannot AES-GCM-seal an outgoing message: "
          + e.getMessage(), e);
    }
  }

  @Override
  public void dispose() {
    sasl.dispose();
  }
}
