package io.securethrift.sasl;

import javax.security.sasl.SaslException;
import org.ietf.jgss.GSSContext;

/**
 * What securethrift's GSSAPI client and server share: the Kerberos context and, once negotiation is complete, the
 * data phase ({@link GssLayer}) that wraps, unwraps and answers for the negotiated properties.
 */
abstract class GssapiMechanism {
  static final String NAME = "GSSAPI";
  private GssLayer layer;

  /** The Kerberos context this side negotiates on. */
  abstract GSSContext context();

  /** Ends negotiation with {@code negotiated} as the data phase. */
  final void complete(GssLayer negotiated) {
    this.layer = negotiated;
  }

  public final String getMechanismName() {
    return NAME;
  }

  public final boolean isComplete() {
    return layer != null;
  }

  public final byte[] unwrap(byte[] incoming, int offset, int len) throws SaslException {
    return layer().unwrap(incoming, offset, len);
  }

  public final byte[] wrap(byte[] outgoing, int offset, int len) throws SaslException {
    return layer().wrap(outgoing, offset, len);
  }

  public final Object getNegotiatedProperty(String propName) {
    return layer().property(propName);
  }

  /** The data phase; for securethrift's own transports, which seal AES-GCM records without a copy. */
  final GssLayer layer() {
    if (layer == null) {
      throw new IllegalStateException("GSSAPI authentication not completed");
    }
    return layer;
  }

  public final void dispose() {
    Krb5Contexts.dispose(context());
  }
}
