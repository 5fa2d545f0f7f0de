package io.securethrift.sasl;

import io.securethrift.core.PeerText;
import io.securethrift.core.CipherStrength;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.SaslMechanism;
import io.securethrift.sasl.Negotiation.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransportException;

/**
 * The server half of a Thrift SASL negotiation. Everything the server refuses is explained to the client with BAD
 * and a reason (unknown mechanism, protocol violation, failed authentication, no common QOP, a DIGEST-MD5 cipher
 * weaker than {@code securethrift.sasl.digest.min.strength}), then the connection is closed by the caller.
 */
final class ServerNegotiation {
  /** RFC 4422 mechanism names: 1 to 20 upper-case letters, digits, hyphens and underscores. */
  private static final Pattern MECHANISM_NAME = Pattern.compile("[A-Z0-9_-]{1,20}");

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
    try {
      return advance(message);
    } catch (SaslException e) {
      dispose();
      String reason = PeerText.describe(e);
      negotiation.reportFailure(NegotiationStatus.BAD, reason + qopHint(reason));
      throw failed(reason + qopHint(reason), Describe.loggable(e));
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
      throw refuse("expected OK or COMPLETE, got " + message.status());
    }
    byte[] challenge = endpoint.evaluate(message.payload());
    if (endpoint.isComplete()) {
      QualityOfProtection qop = QopLists.negotiated(endpoint);
      if (!accepted.contains(qop)) {
        throw refuse("client selected " + qop + ", but server accepts " + QopLists.describe(accepted));
      }
      DigestCiphers cipher = null;
      if (mechanism.equals(SaslMechanism.DIGEST_MD5.mechanismName()) && qop == QualityOfProtection.AUTH_CONF) {
        // The response that completed the mechanism is the one naming the client's cipher.
        cipher = DigestCiphers.negotiated(endpoint, message.payload());
        Optional<String> weak = cipher.refusal(minimumStrength, "client");
        if (weak.isPresent()) {
          throw refuse(weak.get());
        }
      }
      negotiation.sendAndFlush(NegotiationStatus.COMPLETE, challenge);
      return new Negotiated(endpoint, mechanism, qop, cipher);
    }
    if (message.status() == NegotiationStatus.COMPLETE) {
      throw refuse("client reported COMPLETE before the server's " + mechanism + " mechanism completed");
    }
    negotiation.sendAndFlush(NegotiationStatus.OK, challenge);
    return null;
  }

  private void start(Message start) throws SaslException, TTransportException {
    if (start.status() != NegotiationStatus.START) {
      throw refuse("expected START, got " + start.status());
    }
    String name = new String(start.payload(), StandardCharsets.US_ASCII);
    if (!MECHANISM_NAME.matcher(name).matches()) {
      throw refuse("invalid SASL mechanism name (" + start.payload().length + " bytes)");
    }
    endpoint = factory.create(name);
    if (endpoint == null) {
      throw refuse("Unsupported mechanism type " + name);
    }
    mechanism = name;
  }

  /**
   * Ends the negotiation on a transport or unexpected error: the mechanism is released and a message the server
   * could not read is reported to the peer with BAD, as every refusal is.
   */
  TTransportException failure(Exception e) {
    dispose();
    if (e instanceof TTransportException && !(e instanceof PeerFailure)
        && ((TTransportException) e).getType() == TTransportException.CORRUPTED_DATA) {
      negotiation.reportFailure(NegotiationStatus.BAD, e.getMessage());
    }
    // Our own transport errors and PeerFailure (sanitized on receipt) are safe; anything else may quote the peer.
    if (e instanceof RuntimeException) {
      return failed(PeerText.describe(e), Describe.loggable(e));
    }
    return failed(e.getMessage() + (e instanceof PeerFailure ? qopHint(e.getMessage()) : ""), e);
  }

  /** Releases the mechanism of a negotiation that will not complete. */
  void dispose() {
    if (endpoint != null) {
      endpoint.dispose();
    }
  }

  private TTransportException refuse(String reason) {
    negotiation.reportFailure(NegotiationStatus.BAD, reason);
    return new TTransportException(TTransportException.UNKNOWN, reason);
  }

  private String qopHint(String reason) {
    return reason.contains("protection") ? " (server accepts " + QopLists.describe(accepted) + ")" : "";
  }

  private TTransportException failed(String detail, Throwable cause) {
    return new TTransportException(TTransportException.UNKNOWN, mechanism + " negotiation with " + client
        + " failed: " + detail, cause);
  }
}
