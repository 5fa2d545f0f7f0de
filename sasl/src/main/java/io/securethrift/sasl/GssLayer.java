package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Arrays;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.MessageProp;

/**
 * The data phase of a completed GSSAPI mechanism ({@link GssapiClient}, {@link GssapiServer}): the negotiated layer
 * and what wraps and unwraps under it. Under {@link SecurityLayer#AES_GCM} frames are {@link GcmRecords}; under the
 * standard layers they are the Kerberos context's wrap tokens (RFC 4121), checked for replay, reordering and loss.
 * Any failed unwrap ends this layer: every later frame is refused, as the peer's stream can no longer be trusted.
 * The two directions are independent, so one thread may wrap while another unwraps.
 */
final class GssLayer {
  /** The negotiated property naming how {@code auth-conf} encrypts: {@code aes-gcm} or {@code gss}. */
  static final String PRIVACY = ConfigProperty.SASL_PRIVACY.key();

  private final GSSContext context;
  private final int layer;
  private final int ownMaxBuffer;
  private final int rawSendSize;
  private final GcmRecords sealer;
  private final GcmRecords opener;
  private volatile boolean failed;

  private GssLayer(GSSContext context, int layer, int ownMaxBuffer, int rawSendSize, GcmRecords sealer,
      GcmRecords opener) {
    this.context = context;
    this.layer = layer;
    this.ownMaxBuffer = ownMaxBuffer;
    this.rawSendSize = rawSendSize;
    this.sealer = sealer;
    this.opener = opener;
  }

  /** A standard layer (none, integrity or confidentiality) over {@code context}, sending to {@code peerMaxBuffer}. */
  static GssLayer standard(GSSContext context, int layer, int ownMaxBuffer, int peerMaxBuffer) throws SaslException {
    int raw = 0;
    if (layer != SecurityLayer.NONE) {
      try {
        raw = context.getWrapSizeLimit(0, layer == SecurityLayer.CONFIDENTIALITY, peerMaxBuffer);
      } catch (GSSException e) {
        throw new SaslException("cannot size GSSAPI wrap tokens: " + e.getMessage(), e);
      }
    }
    return new GssLayer(context, layer, ownMaxBuffer, raw, null, null);
  }

  /** AES-GCM records: {@code sealing} for what this side sends, {@code opening} for what it receives. */
  static GssLayer aesGcm(GSSContext context, int ownMaxBuffer, int peerMaxBuffer, byte[] sealing, byte[] opening,
      Provider provider) {
    return new GssLayer(context, SecurityLayer.AES_GCM, ownMaxBuffer, GcmRecords.plainCapacity(peerMaxBuffer),
        GcmRecords.sealer(provider, 32, sealing, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES),
        GcmRecords.opener(provider, 32, opening, GcmRecords.REKEY_RECORDS, GcmRecords.REKEY_BYTES));
  }

  QualityOfProtection qop() {
    return SecurityLayer.qop(layer);
  }

  /** The sealing and opening records under AES-GCM, for securethrift's own transports; null otherwise. */
  GcmRecords sealer() {
    return sealer;
  }

  GcmRecords opener() {
    return opener;
  }

  Object property(String name) {
    switch (name) {
      case Sasl.QOP:
        return qop().token();
      case Sasl.MAX_BUFFER:
        return Integer.toString(ownMaxBuffer);
      case Sasl.RAW_SEND_SIZE:
        return Integer.toString(rawSendSize);
      default:
        if (PRIVACY.equals(name) && layer >= SecurityLayer.CONFIDENTIALITY) {
          return (layer == SecurityLayer.AES_GCM ? SaslPrivacy.AES_GCM : SaslPrivacy.GSS).token();
        }
        return null;
    }
  }

  byte[] wrap(byte[] outgoing, int offset, int length) throws SaslException {
    if (layer == SecurityLayer.NONE) {
      throw new IllegalStateException("GSSAPI negotiated no security layer (auth): there is nothing to wrap with");
    }
    if (sealer != null) {
      synchronized (sealer) {
        byte[] record = new byte[GcmRecords.sealedLength(length)];
        try {
          sealer.seal(outgoing, offset, length, record, 0);
        } catch (GeneralSecurityException e) {
          throw new SaslException("cannot seal an AES-GCM record: " + e.getMessage(), e);
        }
        return record;
      }
    }
    try {
      return context.wrap(outgoing, offset, length, new MessageProp(0, layer == SecurityLayer.CONFIDENTIALITY));
    } catch (GSSException e) {
      throw new SaslException("GSSAPI wrap failed: " + e.getMessage(), e);
    }
  }

  byte[] unwrap(byte[] incoming, int offset, int length) throws SaslException {
    if (layer == SecurityLayer.NONE) {
      throw new IllegalStateException("GSSAPI negotiated no security layer (auth): there is nothing to unwrap");
    }
    if (failed) {
      throw new SaslException("an earlier " + qop() + " frame on this connection failed its check; no later frame"
          + " is accepted");
    }
    try {
      return opener != null ? open(incoming, offset, length) : unwrapToken(incoming, offset, length);
    } catch (SaslException e) {
      failed = true;
      throw e;
    }
  }

  private byte[] open(byte[] incoming, int offset, int length) throws SaslException {
    int plainLength = GcmRecords.plainLength(length);
    if (plainLength < 0) {
      throw new SaslException("AES-GCM message of " + length + " bytes ends in a record shorter than its "
          + GcmRecords.TAG + "-byte tag");
    }
    byte[] record = offset == 0 ? incoming : Arrays.copyOfRange(incoming, offset, offset + length);
    byte[] plain = new byte[plainLength];
    synchronized (opener) {
      try {
        opener.open(record, length, plain, 0);
      } catch (GeneralSecurityException e) {
        throw new SaslException("AES-GCM message of " + length + " bytes failed authentication (forged, altered,"
            + " replayed, reordered, cut short or after a lost record)", e);
      }
    }
    return plain;
  }

  private byte[] unwrapToken(byte[] incoming, int offset, int length) throws SaslException {
    MessageProp prop = new MessageProp(0, false);
    byte[] plain;
    try {
      plain = context.unwrap(incoming, offset, length, prop);
    } catch (GSSException e) {
      throw new SaslException("GSSAPI " + qop() + " token of " + length + " bytes failed its check: "
          + e.getMessage(), e);
    }
    if (prop.isDuplicateToken() || prop.isOldToken() || prop.isGapToken() || prop.isUnseqToken()) {
      throw new SaslException("GSSAPI " + qop() + " token out of sequence (replayed, reordered or after a lost"
          + " token)");
    }
    if (layer == SecurityLayer.CONFIDENTIALITY && !prop.getPrivacy()) {
      throw new SaslException("GSSAPI token without confidentiality on an auth-conf connection");
    }
    return plain;
  }
}
