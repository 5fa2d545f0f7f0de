package io.securethrift.sasl;

import io.securethrift.core.CipherStrength;
import io.securethrift.core.QualityOfProtection;
import io.securethrift.core.identity.PeerText;
import io.securethrift.core.internal.EscapedTransportException;
import io.securethrift.sasl.Negotiation.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import javax.security.sasl.SaslException;
import org.apache.thrift.transport.TTransportException;

/**
 * The client half of a Thrift SASL negotiation. It finishes only when the server says COMPLETE and the client's own
 * mechanism is complete too: a server claiming completion early is refused (the CVE-2018-1320 hole in libthrift
 * before 0.12), and the negotiated QOP must be one the client listed. A DIGEST-MD5 {@code auth-conf} cipher must be
 * as strong as {@code securethrift.sasl.digest.min.strength}.
 */
final class ClientNegotiation {
  private final Negotiation negotiation;
  private final SaslEndpoint sasl;
  private final MechanismSupport mechanism;
  private final List<QualityOfProtection> accepted;
  private final CipherStrength minimumStrength;
  private final String server;
  /** The client's answer to the server's first challenge, which names the cipher it chose (DIGEST-MD5). */
  private byte[] firstResponse = new byte[0];

  ClientNegotiation(Negotiation negotiation, SaslEndpoint sasl, MechanismSupport mechanism,
      List<QualityOfProtection> accepted, CipherStrength minimumStrength, String server) {
    this.negotiation = negotiation;
    this.sasl = sasl;
    this.mechanism = mechanism;
    this.accepted = accepted;
    this.minimumStrength = minimumStrength;
    this.server = server;
  }

  /** Runs the negotiation and returns what both sides settled on. */
  Negotiated run(boolean hasInitialResponse) throws TTransportException {
    try {
      negotiation.send(NegotiationStatus.START, mechanism.name().getBytes(StandardCharsets.US_ASCII));
      byte[] initial = hasInitialResponse ? sasl.evaluate(new byte[0]) : new byte[0];
      negotiation.sendAndFlush(sasl.isComplete() ? NegotiationStatus.COMPLETE : NegotiationStatus.OK, initial);
      boolean first = true;
      while (true) {
        Message message = negotiation.receive();
        NegotiationStatus status = message.status();
        if (status != NegotiationStatus.OK && status != NegotiationStatus.COMPLETE) {
          throw refuse("server sent " + status + " during negotiation; expected OK or COMPLETE");
        }
        if (sasl.isComplete()) {
          if (status == NegotiationStatus.COMPLETE) {
            break;
          }
          throw refuse("server sent OK after the client's mechanism completed; expected COMPLETE");
        }
        if (first) {
          Optional<String> refused = mechanism.refuseOffer(message.payload(), accepted, minimumStrength);
          if (refused.isPresent()) {
            throw refuse(refused.get());
          }
        }
        byte[] response = sasl.evaluate(message.payload());
        if (first) {
          firstResponse = response;
        }
        first = false;
        if (status == NegotiationStatus.COMPLETE) {
          if (!sasl.isComplete()) {
            throw refuse("server reported COMPLETE before the client's " + mechanism + " mechanism completed");
          }
          break;
        }
        if (sasl.isComplete()) {
          acceptable();
        }
        negotiation.sendAndFlush(sasl.isComplete() ? NegotiationStatus.COMPLETE : NegotiationStatus.OK, response);
      }
      return negotiated();
    } catch (SaslException e) {
      String reason = PeerText.describe(e);
      negotiation.reportFailure(NegotiationStatus.BAD, reason);
      throw failed(reason, Describe.loggable(e));
    } catch (PeerFailure e) {
      throw failed(e.getMessage() + qopHint(e.getMessage()), e);
    } catch (TTransportException e) {
      String text = PeerText.messageOf(e);
      if (e.getType() == TTransportException.CORRUPTED_DATA) {
        negotiation.reportFailure(NegotiationStatus.BAD, text);
      }
      throw failed(text, e);
    }
  }

  /**
   * The DIGEST-MD5 challenge names the server's levels and ciphers in clear: refuse before answering if none of the
   * levels is ours, or if the level the mechanism will pick (the first of ours the server offers) is {@code auth-conf}
   * and no offered cipher is strong enough.
   */
  private Negotiated negotiated() throws TTransportException {
    QualityOfProtection qop = acceptable();
    DigestCiphers cipher = mechanism.cipher(firstResponse, qop);
    if (cipher != null) {
      Optional<String> weak = cipher.refusal(minimumStrength, "client");
      if (weak.isPresent()) {
        throw refuse(weak.get());
      }
    }
    return new Negotiated(sasl, mechanism.name(), qop, cipher);
  }

  private QualityOfProtection acceptable() throws TTransportException {
    QualityOfProtection qop = QopLists.negotiated(sasl);
    if (!accepted.contains(qop)) {
      throw refuse(QopLists.noCommonLevel(accepted, qop + " and none of the client's levels"));
    }
    Optional<String> tooSmall = QopLists.bufferRefusal(sasl, qop, "server");
    if (tooSmall.isPresent()) {
      throw refuse(tooSmall.get());
    }
    return qop;
  }

  /**
   * Tells the server why (BAD) and fails; the message is what both sides report.
   *
   * @param reason this client's text, quoting the server only through {@link PeerText}
   */
  private TTransportException refuse(String reason) {
    negotiation.reportFailure(NegotiationStatus.BAD, reason);
    return new EscapedTransportException(TTransportException.UNKNOWN, reason);
  }

  private String qopHint(String reason) {
    return reason.contains("protection") ? " (client accepts " + QopLists.describe(accepted) + ")" : "";
  }

  /** @param detail escaped already */
  private TTransportException failed(String detail, Throwable cause) {
    return new EscapedTransportException(TTransportException.UNKNOWN, "SASL " + mechanism + " negotiation with "
        + server + " failed: " + detail, cause);
  }
}
