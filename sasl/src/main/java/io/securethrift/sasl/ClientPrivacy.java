package io.securethrift.sasl;

import io.securethrift.core.ConfigProperty;
import io.securethrift.core.Limits;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslPrivacy;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.internal.FrameReader;
import io.securethrift.core.spi.ReconnectForFallback;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of DIGEST-MD5's AES-GCM key exchange ({@code securethrift.sasl.privacy}), run right after a
 * negotiation at {@code auth-conf}: sends the hello wrapped by the mechanism and waits for the answer. (securethrift's
 * GSSAPI mechanism settles privacy inside its own exchange, so it only gets the level check here.) A server that closes
 * the connection instead (a stock Thrift SASL peer, or securethrift with {@code gss}, reads the hello as a broken call)
 * fails the connection under {@code aes-gcm}; under {@code aes-gcm-preferred} it is remembered for
 * {@link #REMEMBERED_MINUTES} minutes and the client factory reconnects, this time without the exchange.
 */
final class ClientPrivacy {
  /** How long a peer that closed on the hello is served with gss without asking again. */
  static final long REMEMBERED_MINUTES = 10;
  private static final Logger LOG = LoggerFactory.getLogger(ClientPrivacy.class);
  private static final String KEY = ConfigProperty.SASL_PRIVACY.key();

  private final SaslPrivacy privacy;
  private final Limits limits;
  /** Peers that closed on the hello, with the time (System.nanoTime) until which they are served with gss. */
  private final Map<InetSocketAddress, Long> gssPeers = new ConcurrentHashMap<>();

  ClientPrivacy(SaslPrivacy privacy, Limits limits) {
    this.privacy = privacy;
    this.limits = limits;
  }

  /**
   * Runs the exchange with the server at {@code peer} when the setting and the negotiated level call for it.
   *
   * @return the keys; null when the connection goes on with the mechanism's wrap
   * @throws ReconnectForFallback when the server closed on the hello and {@code aes-gcm-preferred} allows gss
   */
  PrivacyExchange.Keys exchange(TTransport stream, SaslEndpoint sasl, QualityOfProtection qop,
      InetSocketAddress peer, String server) throws TTransportException {
    if (!privacy.speaksAesGcm()) {
      return null;
    }
    if (qop != QualityOfProtection.AUTH_CONF) {
      if (privacy == SaslPrivacy.AES_GCM) {
        throw new TTransportException(TTransportException.UNKNOWN, "negotiated " + qop + " with " + server + ", but "
            + KEY + "=aes-gcm requires auth-conf; remove the lower levels from securethrift.sasl.qop, or set " + KEY
            + "=aes-gcm-preferred");
      }
      return null;
    }
    if (sasl.negotiatesPrivacy() || privacy == SaslPrivacy.AES_GCM_PREFERRED && remembered(peer)) {
      return null;
    }
    byte[] hello = PrivacyExchange.hello();
    byte[] answer;
    try {
      byte[] token = sasl.wrap(hello, 0, hello.length);
      byte[] frame = new byte[4 + token.length];
      BigEndian.putInt(frame, 0, token.length);
      System.arraycopy(token, 0, frame, 4, token.length);
      stream.write(frame);
      stream.flush();
      FrameReader reader = new FrameReader(limits.maxNegotiationMessageSize(),
          ConfigProperty.LIMIT_MAX_NEGOTIATION_MESSAGE_SIZE.key());
      int length = reader.readFrame(stream);
      answer = sasl.unwrap(reader.buffer(), 0, length);
    } catch (SaslException e) {
      throw new EscapedTransportException(TTransportException.CORRUPTED_DATA, "the AES-GCM key exchange with "
          + server + " failed the mechanism's integrity check (" + KEY + "=" + privacy + "): " + PeerText.describe(e),
          Describe.loggable(e));
    } catch (TTransportException e) {
      if (!closed(e)) {
        throw e;
      }
      return closedOnHello(peer, server, e);
    }
    PrivacyExchange.Keys keys = PrivacyExchange.finish(hello, answer, answer.length);
    if (keys == null && privacy == SaslPrivacy.AES_GCM) {
      throw new TTransportException(TTransportException.UNKNOWN, server + " declined the AES-GCM key exchange: it"
          + " shares no cipher or protocol version with this client, and " + KEY + "=aes-gcm requires one");
    }
    return keys;
  }

  private PrivacyExchange.Keys closedOnHello(InetSocketAddress peer, String server, TTransportException e)
      throws TTransportException {
    if (privacy == SaslPrivacy.AES_GCM) {
      throw new TTransportException(TTransportException.UNKNOWN, server + " closed the connection instead of answering"
          + " the AES-GCM key exchange that " + KEY + "=aes-gcm requires: it is a stock Thrift SASL peer or runs " + KEY
          + "=gss; set " + KEY + "=aes-gcm-preferred or aes-gcm on the server, or aes-gcm-preferred on this client to"
          + " fall back to gss", e);
    }
    gssPeers.put(peer, System.nanoTime() + TimeUnit.MINUTES.toNanos(REMEMBERED_MINUTES));
    String message = server + " (" + peer + ") closed the connection instead of answering the AES-GCM key exchange;"
        + " reconnecting with gss (" + KEY + "=aes-gcm-preferred), and using gss with it for the next "
        + REMEMBERED_MINUTES + " minutes";
    // A fallback an active attacker could also cause by cutting connections: visible, never silent.
    LOG.warn(message);
    throw new ReconnectForFallback(message, e);
  }

  private boolean remembered(InetSocketAddress peer) {
    Long until = gssPeers.get(peer);
    if (until == null) {
      return false;
    }
    if (System.nanoTime() - until < 0) {
      return true;
    }
    gssPeers.remove(peer, until);
    return false;
  }

  /** Whether the peer ended the connection: a clean close, or a reset from a server that closed with data unread. */
  private static boolean closed(TTransportException e) {
    return e.getType() == TTransportException.END_OF_FILE || e.getCause() instanceof SocketException;
  }
}
