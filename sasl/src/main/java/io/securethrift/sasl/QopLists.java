package io.securethrift.sasl;

import io.securethrift.core.QualityOfProtection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import javax.security.sasl.Sasl;

/**
 * QOP preference lists and the checks that keep negotiation inside them. The mechanisms pick a level on their own;
 * these checks make sure neither side ends up with a level it did not list, and that a failure names both lists so
 * an operator sees at once which side to change.
 */
final class QopLists {
  private QopLists() {}

  static String describe(List<QualityOfProtection> list) {
    return list.toString();
  }

  /** The levels a DIGEST-MD5 server offers in its first challenge (plain text), if it names any. */
  static Optional<List<QualityOfProtection>> digestOffer(byte[] challenge) {
    Optional<String> levels = DigestDirectives.value(challenge, "qop");
    if (levels.isEmpty()) {
      return Optional.empty();
    }
    List<QualityOfProtection> offer = new ArrayList<>();
    for (String token : levels.get().split(",")) {
      for (QualityOfProtection q : QualityOfProtection.values()) {
        if (q.token().equals(token.trim())) {
          offer.add(q);
        }
      }
    }
    return Optional.of(offer);
  }

  /** The level a complete mechanism negotiated; RFC 4422 says absence means {@code auth}. */
  static QualityOfProtection negotiated(SaslEndpoint sasl) {
    Object value = sasl.negotiatedProperty(Sasl.QOP);
    if (value == null) {
      return QualityOfProtection.AUTH;
    }
    for (QualityOfProtection q : QualityOfProtection.values()) {
      if (q.token().equals(value)) {
        return q;
      }
    }
    throw new IllegalStateException("SASL mechanism negotiated an unknown QOP '" + value + "'");
  }

  static String noCommonLevel(List<QualityOfProtection> client, String server) {
    return "no SASL quality of protection acceptable to both sides: client accepts " + describe(client)
        + ", server offers " + server;
  }

  /**
   * The largest plain chunk one wrapped token may carry, as the mechanism computed it from the peer's max buffer
   * minus its wrapping overhead ({@code javax.security.sasl.rawsendsize}); empty when the mechanism states none.
   */
  static OptionalInt rawSendSize(SaslEndpoint sasl) {
    Object negotiated = sasl.negotiatedProperty(Sasl.RAW_SEND_SIZE);
    if (negotiated instanceof String) {
      try {
        return OptionalInt.of(Integer.parseInt((String) negotiated));
      } catch (NumberFormatException ignored) {
        // A mechanism that states no usable size sets no limit of its own.
      }
    }
    return OptionalInt.empty();
  }

  /**
   * Why a complete negotiation must be refused: under a wrapping QOP, the peer's max buffer is no larger than the
   * wrapping overhead, so no token could carry a byte of payload; empty when tokens fit.
   */
  static Optional<String> bufferRefusal(SaslEndpoint sasl, QualityOfProtection qop, String peer) {
    OptionalInt size = rawSendSize(sasl);
    if (!qop.wrapsMessages() || size.isEmpty() || size.getAsInt() > 0) {
      return Optional.empty();
    }
    return Optional.of("the " + peer + "'s SASL max buffer is too small to carry one byte of " + qop + " payload"
        + " (the mechanism's raw send size comes out at " + size.getAsInt() + " bytes, the wrapping overhead fills"
        + " the whole buffer); the " + peer + " must advertise a larger max buffer (javax.security.sasl.maxbuffer,"
        + " Cyrus SASL's maxbufsize)");
  }
}
