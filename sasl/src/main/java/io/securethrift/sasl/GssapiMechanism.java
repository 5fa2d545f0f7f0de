package io.securethrift.sasl;

import io.securethrift.core.identity.PeerText;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What securethrift's GSSAPI client and server share: the Kerberos context and, once negotiation is complete, the
 * data phase ({@link GssLayer}) that wraps, unwraps and answers for the negotiated properties.
 */
abstract class GssapiMechanism {
  static final String NAME = "GSSAPI";
  /**
   * One DEBUG line per completed negotiation, so an operator of code that only reaches the mechanism through
   * {@code Sasl} (Accumulo, Hadoop, ZooKeeper) can see which layer each connection got.
   */
  private static final Logger LOG = LoggerFactory.getLogger(GssapiMechanism.class);
  /** Completed negotiations in this JVM by level, for {@link SecureThriftSaslProvider#negotiations}. */
  private static final Map<String, LongAdder> NEGOTIATIONS = new ConcurrentHashMap<>();
  private GssLayer layer;

  /** The Kerberos context this side negotiates on. */
  abstract GSSContext context();

  /** Ends negotiation with {@code negotiated} as the data phase. */
  final void complete(GssLayer negotiated) {
    this.layer = negotiated;
    Object privacy = negotiated.property(GssLayer.PRIVACY);
    String level = negotiated.qop() + (privacy == null ? "" : "/" + privacy);
    NEGOTIATIONS.computeIfAbsent(level, l -> new LongAdder()).increment();
    if (LOG.isDebugEnabled()) {
      boolean client = this instanceof SaslClient;
      LOG.debug("GSSAPI {} negotiated {} with {}", client ? "client" : "server", level, peer(client));
    }
  }

  /** How many negotiations this JVM's GSSAPI clients and servers completed at {@code level}. */
  static long negotiations(String level) {
    LongAdder count = NEGOTIATIONS.get(level);
    return count == null ? 0 : count.sum();
  }

  /** The other side's principal, for the log. */
  private String peer(boolean client) {
    try {
      return PeerText.sanitize(String.valueOf(client ? context().getTargName() : context().getSrcName()));
    } catch (GSSException e) {
      return "an unnamed peer";
    }
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
