package io.securethrift.sasl;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.audit.AuthFailure;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedMessage;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.core.spi.HandshakeFailure;
import io.securethrift.sasl.Negotiation.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransportException;

/**
 * The server half of a Thrift SASL negotiation. Everything the server refuses is explained to the client with BAD
 * and a reason (unknown mechanism, protocol violation, Kerberos's refusal, no common QOP, a DIGEST-MD5 cipher weaker
 * than {@code securethrift.sasl.digest.min.strength}), or, for a delegation token DIGEST-MD5 refused, the one {@value
 * #AUTHENTICATION_FAILED}; then the connection is closed by the caller. Every
 * failure carries its cause for the server's audit when this side can tell it.
 */
final class ServerNegotiation {
  /** RFC 4422 mechanism names: 1 to 20 upper-case letters, digits, hyphens and underscores. */
  private static final Pattern MECHANISM_NAME = Pattern.compile("[A-Z0-9_-]{1,20}");
  /** The one reply to every client whose delegation token DIGEST-MD5 refused, whatever the reason. */
  static final String AUTHENTICATION_FAILED = "authentication failed";

  /** Creates the server mechanism for a name the client asked for, or null when this server does not offer it. */
  @FunctionalInterface
  interface ServerFactory {
    SaslEndpoint create(String mechanism) throws SaslException;
  }

  private final Negotiation negotiation;
  private final List<QualityOfProtection> accepted;
  private final CipherStrength minimumStrength;
  private final String client;
  private final ServerFactory factory;
  private String mechanism = "SASL";
  /** The mechanism, once START named one this server offers; null before. */
  private SaslEndpoint endpoint;
  private MechanismSupport support;
  // What the peer had seen when it failed: whether it sent anything at all, and the server's QOP offer.
  private boolean started;
  private int challenges;
  private boolean offerSent;

  /**
   * @param negotiation where replies go (and, for {@link #run()}, where messages come from)
   * @param factory creates the mechanism START asks for
   */
  ServerNegotiation(Negotiation negotiation, List<QualityOfProtection> accepted, CipherStrength minimumStrength,
      String client, ServerFactory factory) {
    this.negotiation = negotiation;
    this.accepted = accepted;
    this.minimumStrength = minimumStrength;
    this.client = client;
    this.factory = factory;
  }

  /** Reads messages from the negotiation's stream and answers them until the negotiation completes or fails. */
  Negotiated run() throws TTransportException {
    while (true) {
      Message message;
      try {
        message = negotiation.receive();
      } catch (TTransportException | RuntimeException e) {
        throw failure(e);
      }
      Negotiated result = step(message);
      if (result != null) {
        return result;
      }
    }
  }

  /**
   * Answers one message: the step both the blocking loop above and non-blocking servers (which read messages
   * themselves) take, so the rules live here once.
   *
   * @return what the negotiation established once it is complete; null while more messages are needed
   */
  Negotiated step(Message message) throws TTransportException {
    started = true;
    try {
      return advance(message);
    } catch (SaslException e) {
      dispose();
      String reason = PeerText.describe(e);
      AuthFailure cause = has(e, UnknownTokenException.class) ? AuthFailure.UNKNOWN_PRINCIPAL
          : has(e, ChannelBindingException.class) ? AuthFailure.CHANNEL_BINDING
          : mentionsProtection(reason) ? AuthFailure.QOP_REFUSED_BY_SERVER : AuthFailure.SASL_BAD;
      // Why a delegation token failed is not told to the client, so that an unauthenticated peer cannot tell a live
      // token identifier from a dead one; the audit line keeps the reason. A level the sides do not share is named,
      // and so are Kerberos's reasons, which speak of the client's own ticket.
      boolean credentials = cause == AuthFailure.UNKNOWN_PRINCIPAL
          || cause == AuthFailure.SASL_BAD && !support.kerberos();
      negotiation.reportFailure(NegotiationStatus.BAD, credentials ? AUTHENTICATION_FAILED : reason + qopHint(reason));
      throw failed(cause, reason + qopHint(reason), Describe.loggable(e));
    } catch (Refused e) {
      dispose();
      throw failed(e.cause, e.getMessage(), null);
    } catch (TTransportException | RuntimeException e) {
      throw failure(e);
    }
  }

  private Negotiated advance(Message message) throws SaslException, TTransportException {
    if (endpoint == null) {
      start(message);
      return null;
    }
    if (message.status() != NegotiationStatus.OK && message.status() != NegotiationStatus.COMPLETE) {
      throw refuse(AuthFailure.SASL_BAD, "expected OK or COMPLETE, got " + message.status());
    }
    byte[] challenge = endpoint.evaluate(message.payload());
    if (endpoint.isComplete()) {
      QualityOfProtection qop = QopLists.negotiated(endpoint);
      if (!accepted.contains(qop)) {
        throw refuse(AuthFailure.QOP_REFUSED_BY_SERVER, "client selected " + qop + ", but server accepts "
            + QopLists.describe(accepted));
      }
      // The response that completed the mechanism is the one naming the client's cipher.
      DigestCiphers cipher = support.cipher(message.payload(), qop);
      if (cipher != null) {
        Optional<String> weak = cipher.refusal(minimumStrength, "client");
        if (weak.isPresent()) {
          throw refuse(AuthFailure.QOP_REFUSED_BY_SERVER, weak.get());
        }
      }
      Optional<String> tooSmall = QopLists.bufferRefusal(endpoint, qop, "client");
      if (tooSmall.isPresent()) {
        throw refuse(AuthFailure.SASL_BAD, tooSmall.get());
      }
      negotiation.sendAndFlush(NegotiationStatus.COMPLETE, challenge);
      return new Negotiated(endpoint, mechanism, qop, cipher);
    }
    if (message.status() == NegotiationStatus.COMPLETE) {
      throw refuse(AuthFailure.SASL_BAD, "client reported COMPLETE before the server's " + mechanism
          + " mechanism completed");
    }
    boolean offer = support.isOffer(challenge, challenges++);
    negotiation.sendAndFlush(NegotiationStatus.OK, offer ? support.serverOffer(challenge, minimumStrength)
        : challenge);
    offerSent = offer;
    return null;
  }

  private void start(Message start) throws SaslException, TTransportException {
    if (start.status() != NegotiationStatus.START) {
      throw refuse(AuthFailure.SASL_BAD, "expected START, got " + start.status());
    }
    String name = new String(start.payload(), StandardCharsets.US_ASCII);
    if (!MECHANISM_NAME.matcher(name).matches()) {
      throw refuse(AuthFailure.SASL_BAD, "invalid SASL mechanism name (" + start.payload().length + " bytes)");
    }
    endpoint = factory.create(name);
    if (endpoint == null) {
      throw refuse(AuthFailure.SASL_BAD, "Unsupported mechanism type " + name);
    }
    mechanism = name;
    support = MechanismSupport.named(name).orElseThrow();
  }

  /**
   * Ends the negotiation on a transport or unexpected error: the mechanism is released, a message the server could
   * not read is reported to the peer with BAD, as every refusal is, and the cause is named where the peer's
   * behaviour tells it (closed before START, closed right after the QOP offer, a BAD about protection).
   */
  TTransportException failure(Exception e) {
    dispose();
    if (e instanceof TTransportException && !(e instanceof PeerFailure)
        && ((TTransportException) e).getType() == TTransportException.CORRUPTED_DATA) {
      negotiation.reportFailure(NegotiationStatus.BAD, PeerText.messageOf(e));
    }
    // Every text goes into the failure escaped once: PeerFailure's was escaped on receipt, anything else may quote
    // the peer and is escaped here.
    if (e instanceof RuntimeException) {
      return failed(AuthFailure.SASL_BAD, PeerText.describe(e), Describe.loggable(e));
    }
    TTransportException t = (TTransportException) e;
    String text = PeerText.messageOf(t);
    if (t.getType() == TTransportException.END_OF_FILE && !(t instanceof PeerFailure)) {
      if (!started) {
        return failed(AuthFailure.CLOSED_BEFORE_HANDSHAKE, "the client closed the connection before it sent a whole"
            + " START message: " + text, t);
      }
      if (offerSent) {
        return failed(AuthFailure.QOP_REFUSED_BY_PEER, "the client closed the connection right after the server"
            + " offered " + QopLists.describe(accepted) + ": it accepts none of them (a Cyrus SASL client whose"
            + " minssf and maxssf rule them all out closes like this); compare securethrift.sasl.qop on both sides: "
            + text, t);
      }
    }
    if (t instanceof PeerFailure) {
      return failed(mentionsProtection(text) ? AuthFailure.QOP_REFUSED_BY_PEER : AuthFailure.SASL_BAD,
          text + qopHint(text), t);
    }
    // Timeouts, limits and closed connections: core tells them apart from the exception itself.
    return failed(null, text, t);
  }

  /** Releases the mechanism of a negotiation that will not complete. */
  void dispose() {
    if (endpoint != null) {
      endpoint.dispose();
    }
  }

  /**
   * A refusal decided by this server, already reported to the client with BAD. Its reason is this server's text,
   * quoting the peer only through {@link PeerText} (a DIGEST-MD5 cipher name).
   */
  private static final class Refused extends TTransportException implements EscapedMessage {
    private static final long serialVersionUID = 1L;
    private final transient AuthFailure cause;

    Refused(AuthFailure cause, String reason) {
      super(TTransportException.UNKNOWN, reason);
      this.cause = cause;
    }
  }

  private Refused refuse(AuthFailure cause, String reason) {
    negotiation.reportFailure(NegotiationStatus.BAD, reason);
    return new Refused(cause, reason);
  }

  private String qopHint(String reason) {
    return mentionsProtection(reason) ? " (server accepts " + QopLists.describe(accepted) + ")" : "";
  }

  /**
   * Whether a failure's text is about the protection level: the JDK's wording ("No common protection layer", "Client
   * selected unsupported protection") and Cyrus SASL's ("security layer", "ssf"), either side's.
   */
  private static boolean mentionsProtection(String reason) {
    String r = reason.toLowerCase(Locale.ROOT);
    return r.contains("protection") || r.contains("security layer") || r.contains("ssf") || r.contains(" qop");
  }

  private static boolean has(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The negotiation's failure, for core: {@code cause} (when this side can tell it) travels as a
   * {@link HandshakeFailure} in the cause chain, which the server's audit reads.
   *
   * @param detail escaped already
   */
  private TTransportException failed(AuthFailure cause, String detail, Throwable error) {
    String message = mechanism + " negotiation with " + client + " failed: " + detail;
    return new EscapedTransportException(TTransportException.UNKNOWN, message,
        cause == null ? error : new HandshakeFailure(cause, message, error));
  }
}
